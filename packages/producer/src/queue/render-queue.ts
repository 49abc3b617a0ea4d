import type { JobExecutor } from "../jobs/render-executor.js";
import type { RenderJob } from "../jobs/render-job.js";
import { QueueClosedError, QueueFullError, type QueueCounts, type RenderBackend } from "./render-backend.js";
import { graceWindows } from "../lifetime/shutdown-grace.js";
import { compositionDigest } from "../project/composition-digest.js";
import { within } from "../lifetime/within.js";

export interface RenderQueueOptions {
  maxConcurrentRenders: number;
  /** Jobs allowed to wait; one more is refused. */
  maxQueue: number;
  execute: JobExecutor;
}

/**
 * Ended jobs kept in memory for GET /render/:id. Older ones are let go (the state store still
 * answers for them), so a long-running server's memory does not grow with every render it has done.
 */
export const RETAINED_ENDED_JOBS = 1000;

interface Running {
  controller: AbortController;
  /** Settles once the job has ended and its slot is free again. */
  done: Promise<void>;
}

/** Whether the request's composition is still the one it was given (a request without a digest is taken as it is). */
async function compositionUnchanged(job: RenderJob): Promise<boolean> {
  const { file, compositionDigest: given } = job.spec;
  return given === undefined || (await compositionDigest(file)) === given;
}

/** The in-process backend: a FIFO queue in front of a fixed number of slots. */
export class RenderQueue implements RenderBackend {
  private readonly jobs = new Map<string, RenderJob>();
  private readonly waitingJobs: RenderJob[] = [];
  private readonly running = new Map<RenderJob, Running>();
  private readonly ended: RenderJob[] = [];
  private closed = false;

  constructor(private readonly options: RenderQueueOptions) {}

  async submit(job: RenderJob): Promise<void> {
    return this.submitMany([job]);
  }

  async submitMany(jobs: readonly RenderJob[]): Promise<void> {
    if (this.closed) throw new QueueClosedError();
    // A free slot means nobody waits: waiting jobs take a slot the moment one opens.
    const free = Math.max(0, this.options.maxConcurrentRenders - this.running.size);
    const wouldWait = Math.max(0, jobs.length - free);
    const waiting = this.waitingJobs.length;
    if (wouldWait > 0 && waiting + wouldWait > this.options.maxQueue)
      throw new QueueFullError(this.options.maxQueue, { submitted: jobs.length, wouldWait, waiting });
    this.enqueue(jobs);
  }

  async resume(jobs: readonly RenderJob[]): Promise<void> {
    const unchanged: RenderJob[] = [];
    for (const job of jobs) {
      if (await compositionUnchanged(job)) {
        unchanged.push(job);
        continue;
      }
      this.jobs.set(job.id, job);
      job.fail(
        "composition-changed",
        `composition ${job.spec.composition} changed while the server was down, so it is not the one this request was given; send the request again to render it as it is now`,
      );
      this.retire(job);
    }
    this.enqueue(unchanged);
  }

  private enqueue(jobs: readonly RenderJob[]): void {
    for (const job of jobs) {
      this.jobs.set(job.id, job);
      if (this.running.size >= this.options.maxConcurrentRenders) {
        this.waitingJobs.push(job);
        job.waiting(this.waitingJobs.length);
      } else {
        this.start(job);
      }
    }
  }

  async find(id: string): Promise<RenderJob | undefined> {
    return this.jobs.get(id);
  }

  async cancel(id: string): Promise<RenderJob | undefined> {
    const job = this.jobs.get(id);
    if (job) await this.cancelMany([id]);
    return job;
  }

  async cancelMany(ids: readonly string[]): Promise<void> {
    const jobs = ids.flatMap((id) => this.jobs.get(id) ?? []);
    const leaving = new Set(jobs.filter((job) => job.snapshot().state === "queued"));
    if (leaving.size > 0) {
      // One pass, and one announcement of the new places, however many leave.
      const staying = this.waitingJobs.filter((job) => !leaving.has(job));
      this.waitingJobs.splice(0, this.waitingJobs.length, ...staying);
      for (const job of leaving) {
        job.fail("cancelled", "render cancelled before it started");
        this.retire(job);
      }
      this.announcePositions();
    }
    await Promise.all(
      jobs.map((job) => {
        const running = this.running.get(job);
        running?.controller.abort();
        return running?.done;
      }),
    );
  }

  async counts(): Promise<QueueCounts> {
    return {
      maxConcurrentRenders: this.options.maxConcurrentRenders,
      activeRenders: this.running.size,
      queuedRenders: this.waitingJobs.length,
    };
  }

  async shutdown(graceMs: number): Promise<void> {
    this.closed = true;
    for (const job of this.waitingJobs.splice(0)) {
      job.fail("cancelled", "the server shut down before the render started");
      this.retire(job);
    }
    const allDone = Promise.all([...this.running.values()].map((running) => running.done));
    await within(allDone, graceWindows(graceMs).finishMs);
    for (const running of this.running.values()) running.controller.abort();
    await allDone;
  }

  private start(job: RenderJob): void {
    const controller = new AbortController();
    job.start();
    const done = this.options.execute(job, controller.signal).finally(() => {
      this.running.delete(job);
      this.retire(job);
      this.startNext();
    });
    this.running.set(job, { controller, done });
  }

  private startNext(): void {
    if (this.closed) return;
    const next = this.waitingJobs.shift();
    if (!next) return;
    this.start(next);
    this.announcePositions();
  }

  private retire(job: RenderJob): void {
    this.ended.push(job);
    if (this.ended.length > RETAINED_ENDED_JOBS) this.jobs.delete(this.ended.shift()!.id);
  }

  /** Everyone behind a job that left the queue has moved up; each hears its new place. */
  private announcePositions(): void {
    this.waitingJobs.forEach((job, i) => job.waiting(i + 1));
  }
}
