import { withDeadline } from "@compose/renderer";
import type { JobExecutor } from "../jobs/render-executor.js";
import type { RenderJob } from "../jobs/render-job.js";
import { QueueClosedError, QueueFullError, type QueueCounts, type RenderBackend } from "./render-backend.js";
import { graceWindows } from "../lifetime/shutdown-grace.js";

export interface RenderQueueOptions {
  maxConcurrentRenders: number;
  /** Jobs allowed to wait; one more is refused. */
  maxQueue: number;
  execute: JobExecutor;
}

/**
 * Ended jobs kept for GET /render/:id. Older ones are forgotten (their outputs stay on disk), so a
 * long-running server's memory does not grow with every render it has done.
 */
export const RETAINED_ENDED_JOBS = 1000;

interface Running {
  controller: AbortController;
  /** Settles once the job has ended and its slot is free again. */
  done: Promise<void>;
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
    if (this.closed) throw new QueueClosedError();
    // A free slot means nobody waits: waiting jobs take a slot the moment one opens.
    const mustWait = this.running.size >= this.options.maxConcurrentRenders;
    if (mustWait && this.waitingJobs.length >= this.options.maxQueue) throw new QueueFullError(this.options.maxQueue);
    this.jobs.set(job.id, job);
    if (mustWait) {
      this.waitingJobs.push(job);
      job.waiting(this.waitingJobs.length);
    } else {
      this.start(job);
    }
  }

  async find(id: string): Promise<RenderJob | undefined> {
    return this.jobs.get(id);
  }

  async cancel(id: string): Promise<RenderJob | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const index = this.waitingJobs.indexOf(job);
    if (index >= 0) {
      this.waitingJobs.splice(index, 1);
      job.fail("cancelled", "render cancelled before it started");
      this.retire(job);
      this.announcePositions();
    }
    const running = this.running.get(job);
    if (running) {
      running.controller.abort();
      await running.done;
    }
    return job;
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
    await withDeadline(allDone, graceWindows(graceMs).finishMs, () => undefined);
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
