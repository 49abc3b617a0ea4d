import type { EventEmitter } from "node:events";
import type { Job, JobsOptions, Queue, QueueEvents } from "bullmq";
import { endRender, ProgressMeter, withDeadline, type JoinedOutput, type RenderFinishedEvent } from "@compose/renderer";
import { EventRelay } from "./event-relay.js";
import { encodeFailure, isRelayedEvent, RETAIN_SECONDS, taskId, type PlanResult, type RelayedEvent, type RenderJobData, type TaskData } from "./protocol.js";
import { outputFile } from "./tasks.js";

export interface CoordinatorContext {
  tasks: Queue<TaskData>;
  taskEvents: QueueEvents;
  /** This machine's view of the shared outputs directory, where the whole render's output goes. */
  outputsDir: string;
  /** How often a task being waited for is looked up, in case its end was not heard (ms). */
  pollMs?: number;
}

/** A task ended in failure; its reason is already `code: message`. */
export class TaskFailure extends Error {
  override name = "TaskFailure";
}

const TASK_OPTIONS: JobsOptions = {
  // Kept until the request ends, so a coordinator that restarts finds the tasks already done.
  removeOnComplete: { age: RETAIN_SECONDS },
  removeOnFail: { age: RETAIN_SECONDS },
};

/**
 * Waits for a task to end, hearing its progress meanwhile. Ends are heard on the tasks' event
 * stream and also looked up now and then, so one missed event cannot hang a render.
 */
export function waitTask<T>(context: CoordinatorContext, id: string, signal: AbortSignal, onProgress?: (event: RelayedEvent) => void): Promise<T> {
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
      if (!settled && isRelayedEvent(args.data)) onProgress?.(args.data);
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
  await withDeadline(
    (signal) => Promise.all(ids.map((id) => waitTask(context, id, signal).catch(() => undefined))),
    timeoutMs,
    () => undefined,
  );
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
 * the cluster) while its tasks run on whichever workers are free, and relays their events onto
 * the request's job. Without chunks, one `render` task, whose events and finished event are the
 * request's. With chunks, a `plan` task (the render planned once, one range per chunk, stored
 * with its hash, and the audio mixed), the `chunk` tasks in parallel (each given its range and
 * the plan's hash), then an `assemble` task that joins them; the request's events are then those of the
 * whole, as render() reports its workers'. Task ids derive from the request id, so a
 * coordinator restarted elsewhere after its worker died finds the tasks already queued or done
 * instead of adding them again. Ids of the tasks it queued are pushed to `created`.
 */
export async function coordinate(job: Job<RenderJobData>, context: CoordinatorContext, signal: AbortSignal, created: string[]): Promise<RenderFinishedEvent> {
  const startedAt = Date.now();
  const data = job.data;
  const { requestId, options } = data;
  const base = { requestId };
  const relay = new EventRelay(job);
  const add = async <K extends TaskData["kind"]>(id: string, task: TaskData & { kind: K }) => {
    created.push(id);
    await context.tasks.add(task.kind, task, { ...TASK_OPTIONS, jobId: id });
  };
  try {
    if (data.chunkSize === null) {
      const id = taskId(requestId, "render");
      await add(id, { ...base, kind: "render" });
      return await waitTask<RenderFinishedEvent>(context, id, signal, relay.send);
    }

    const planId = taskId(requestId, "plan");
    await add(planId, { ...base, kind: "plan" });
    const plan = await waitTask<PlanResult>(context, planId, signal, relay.send);

    const output = outputFile(context.outputsDir, data.outputName);
    const { ranges, hash: planHash } = plan;
    const meter = new ProgressMeter(plan.totalFrames, relay.send);
    const done = ranges.map(() => 0);
    const report = () => meter.advanceTo(done.reduce((sum, frames) => sum + frames, 0));
    let announced = false;
    const ids = ranges.map((_, index) => taskId(requestId, "chunk", index));
    created.push(...ids);
    await context.tasks.addBulk(
      ranges.map((frames, index) => ({
        name: "chunk",
        data: { ...base, kind: "chunk" as const, index, count: ranges.length, frames, planHash },
        opts: { ...TASK_OPTIONS, jobId: ids[index]! },
      })),
    );
    const chunks = await allOrFirstFailure(
      (wait) =>
        ranges.map(async (range, index) => {
          const size = range.end - range.start;
          const onEvent = (event: RelayedEvent) => {
            if (event.type === "warning") return relay.send(event);
            // The first chunk to start tells of the composition; the extent is the whole render's.
            if (event.type === "started" && !announced) {
              announced = true;
              return relay.send({ ...event, output, durationSeconds: plan.durationSeconds, totalFrames: plan.totalFrames });
            }
            if (event.type !== "progress" || event.stage !== "capture") return;
            done[index] = Math.min(event.frame, size);
            report();
          };
          const finished = await waitTask<RenderFinishedEvent>(context, ids[index]!, wait, onEvent);
          done[index] = size;
          report();
          return finished;
        }),
      signal,
    );
    meter.finish();

    meter.assembling();
    const assembleId = taskId(requestId, "assemble");
    await add(assembleId, { ...base, kind: "assemble", count: ranges.length, planHash });
    return await endRender({
      output,
      commit: { assembled: async () => (await waitTask<JoinedOutput>(context, assembleId, signal)).sizeBytes },
      format: options.format,
      width: plan.width,
      height: plan.height,
      frames: plan.totalFrames,
      durationSeconds: plan.durationSeconds,
      startedAt,
      captureMs: meter.captureMs(),
      captures: chunks,
    });
  } finally {
    await relay.settle();
  }
}
