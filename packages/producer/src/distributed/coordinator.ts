import type { EventEmitter } from "node:events";
import type { Job, JobsOptions, Queue, QueueEvents } from "bullmq";
import { chunkRanges } from "./chunk-plan.js";
import {
  encodeFailure,
  RETAIN_SECONDS,
  taskId,
  type ChunkResult,
  type PlanResult,
  type ProgressData,
  type RenderJobData,
  type RenderResult,
  type TaskData,
} from "./protocol.js";

export interface CoordinatorContext {
  tasks: Queue<TaskData>;
  taskEvents: QueueEvents;
  /** How often a task being waited for is looked up, in case its end was not heard (ms). */
  pollMs?: number;
}

/** A task ended in failure; its reason is already `code: message`. */
export class TaskFailure extends Error {
  override name = "TaskFailure";
}

/** Progress events at most this often, as the renderer's own meter. */
const PROGRESS_INTERVAL_MS = 100;

const TASK_OPTIONS: JobsOptions = {
  // Kept until the request ends, so a coordinator that restarts finds the tasks already done.
  removeOnComplete: { age: RETAIN_SECONDS },
  removeOnFail: { age: RETAIN_SECONDS },
};

/**
 * Relays what the request's tasks report to the request's own job, which the accepting server's
 * stream follows: warnings once each (every chunk warns about the same composition), capture
 * progress over the whole render, throttled, and in order.
 */
class ProgressRelay {
  private chain = Promise.resolve();
  private readonly warnings = new Set<string>();
  private pending: ProgressData | undefined;
  private lastSent = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly job: Job) {}

  /** A task's progress or warning, when its frames are the whole render's (an unchunked render). */
  forward(data: ProgressData): void {
    if (data.type === "warning") this.warning(data.code, data.message);
    else if (data.stage === "capture") this.capture(data.frame, data.totalFrames);
    else this.now(data);
  }

  warning(code: string, message: string): void {
    const key = `${code}\n${message}`;
    if (this.warnings.has(key)) return;
    this.warnings.add(key);
    this.now({ type: "warning", code, message });
  }

  capture(frame: number, totalFrames: number): void {
    this.pending = { type: "progress", stage: "capture", frame, totalFrames, percent: Math.round((frame / totalFrames) * 1000) / 10 };
    const wait = this.lastSent + PROGRESS_INTERVAL_MS - Date.now();
    if (frame === totalFrames || wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait);
  }

  assemble(totalFrames: number): void {
    this.now({ type: "progress", stage: "assemble", frame: totalFrames, totalFrames, percent: 100 });
  }

  async settle(): Promise<void> {
    this.flush();
    await this.chain;
  }

  private now(data: ProgressData): void {
    this.flush();
    this.send(data);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    this.lastSent = Date.now();
    this.send(this.pending);
    this.pending = undefined;
  }

  private send(data: ProgressData): void {
    this.chain = this.chain.then(() => this.job.updateProgress(data)).catch(() => undefined);
  }
}

/**
 * Waits for a task to end, hearing its progress meanwhile. Ends are heard on the tasks' event
 * stream and also looked up now and then, so one missed event cannot hang a render.
 */
export function waitTask<T>(context: CoordinatorContext, id: string, signal: AbortSignal, onProgress?: (data: ProgressData) => void): Promise<T> {
  const events = context.taskEvents as unknown as EventEmitter;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const names = { completed: `completed:${id}`, failed: `failed:${id}`, progress: `progress:${id}` };
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      events.off(names.completed, onCompleted);
      events.off(names.failed, onFailed);
      events.off(names.progress, onProgressEvent);
      signal.removeEventListener("abort", onAbort);
      settle();
    };
    const onCompleted = (args: { returnvalue: unknown }) => finish(() => resolve(args.returnvalue as T));
    const onFailed = (args: { failedReason: string }) => finish(() => reject(new TaskFailure(args.failedReason)));
    const onProgressEvent = (args: { data: unknown }) => {
      if (!settled && typeof args.data === "object" && args.data !== null) onProgress?.(args.data as ProgressData);
    };
    const onAbort = () => finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted")));
    const check = async () => {
      const state = await context.tasks.getJobState(id);
      if (state === "completed" || state === "failed") {
        const job = await context.tasks.getJob(id);
        if (!job) return;
        if (state === "completed") onCompleted({ returnvalue: job.returnvalue });
        else onFailed({ failedReason: job.failedReason });
      } else if (state === "unknown") {
        onFailed({ failedReason: encodeFailure("worker-lost", `task ${id} is no longer in the queue`) });
      }
    };
    events.on(names.completed, onCompleted);
    events.on(names.failed, onFailed);
    events.on(names.progress, onProgressEvent);
    signal.addEventListener("abort", onAbort, { once: true });
    const poll = setInterval(() => void check().catch(() => undefined), context.pollMs ?? 5000);
    if (signal.aborted) onAbort();
    else void check().catch(() => undefined);
  });
}

/**
 * Waits until each of these tasks has ended (or is gone from the queue), for at most `timeoutMs`:
 * a failed or cancelled request reports its end only once its tasks have stopped.
 */
export async function tasksEnded(context: CoordinatorContext, ids: readonly string[], timeoutMs: number): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  await Promise.all(ids.map((id) => waitTask(context, id, signal).catch(() => undefined)));
}

/** Every promise's value, or the first failure, after which the others' waits are dropped. */
async function allOrFirstFailure<T>(start: (signal: AbortSignal) => Array<Promise<T>>, signal: AbortSignal): Promise<T[]> {
  const local = new AbortController();
  const onAbort = () => local.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  const promises = start(local.signal);
  try {
    return await Promise.all(promises);
  } finally {
    signal.removeEventListener("abort", onAbort);
    local.abort(new Error("done"));
    for (const promise of promises) promise.catch(() => undefined);
  }
}

/**
 * Runs one request: it holds a slot of the renders queue (so maxConcurrentRenders holds across
 * the cluster) while its tasks run on whichever workers are free. Without chunks, one `render`
 * task. With chunks, a `plan` task (frame count and the audio mix), the `chunk` tasks in
 * parallel, then an `assemble` task that joins them. Task ids derive from the request id, so a
 * coordinator restarted elsewhere after its worker died finds the tasks already queued or done
 * instead of adding them again. Ids of the tasks it queued are pushed to `created`.
 */
export async function coordinate(job: Job<RenderJobData>, context: CoordinatorContext, signal: AbortSignal, created: string[]): Promise<RenderResult> {
  const data = job.data;
  const { requestId, options } = data;
  const base = { requestId };
  const relay = new ProgressRelay(job);
  const add = async <K extends TaskData["kind"]>(id: string, task: TaskData & { kind: K }) => {
    created.push(id);
    await context.tasks.add(task.kind, task, { ...TASK_OPTIONS, jobId: id });
  };
  try {
    if (data.chunkSize === null) {
      const id = taskId(requestId, "render");
      await add(id, { ...base, kind: "render" });
      return await waitTask<RenderResult>(context, id, signal, (progress) => relay.forward(progress));
    }

    const planId = taskId(requestId, "plan");
    await add(planId, { ...base, kind: "plan" });
    const plan = await waitTask<PlanResult>(context, planId, signal, (progress) => relay.forward(progress));

    const ranges = chunkRanges(plan.totalFrames, data.chunkSize);
    const done = ranges.map(() => 0);
    const report = () => relay.capture(done.reduce((sum, frames) => sum + frames, 0), plan.totalFrames);
    const ids = ranges.map((_, index) => taskId(requestId, "chunk", index));
    created.push(...ids);
    await context.tasks.addBulk(
      ranges.map((frames, index) => ({
        name: "chunk",
        data: { ...base, kind: "chunk" as const, index, count: ranges.length, frames },
        opts: { ...TASK_OPTIONS, jobId: ids[index]! },
      })),
    );
    const chunks = await allOrFirstFailure(
      (wait) =>
        ranges.map(async (range, index) => {
          const size = range.end - range.start;
          const onProgress = (progress: ProgressData) => {
            if (progress.type === "warning") return relay.warning(progress.code, progress.message);
            if (progress.stage !== "capture") return;
            done[index] = Math.min(progress.frame, size);
            report();
          };
          const result = await waitTask<ChunkResult>(context, ids[index]!, wait, onProgress);
          done[index] = size;
          report();
          return result;
        }),
      signal,
    );

    relay.assemble(plan.totalFrames);
    const assembleId = taskId(requestId, "assemble");
    await add(assembleId, {
      ...base,
      kind: "assemble",
      count: ranges.length,
      audio: plan.audio,
      facts: {
        format: options.format,
        durationSeconds: plan.durationSeconds,
        width: plan.width,
        height: plan.height,
        frames: plan.totalFrames,
        history: chunks.some((chunk) => chunk.history === "replay") ? "replay" : "skip",
      },
    });
    return await waitTask<RenderResult>(context, assembleId, signal);
  } finally {
    await relay.settle();
  }
}
