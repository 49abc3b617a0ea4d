import type { RenderJob } from "../jobs/render-job.js";

/** The queue status object of GET /render/queue. */
export interface QueueCounts {
  maxConcurrentRenders: number;
  activeRenders: number;
  queuedRenders: number;
}

/**
 * Where render requests wait and run. The HTTP layer talks only to this, so a backend that
 * spreads jobs over machines (BullMQ on Redis) can replace the in-process queue; every method is
 * asynchronous for that reason, though the in-process one answers at once.
 */
export interface RenderBackend {
  /** Runs the job now if a slot is free, else queues it. Throws QueueFullError or QueueClosedError. */
  submit(job: RenderJob): Promise<void>;
  /**
   * Submits the jobs in order, as if one after another, or none of them: when those that would
   * wait do not all fit in the queue, throws QueueFullError and queues nothing (a batch's rows).
   */
  submitMany(jobs: readonly RenderJob[]): Promise<void>;
  /**
   * Jobs this server accepted before it was stopped (kill -9, a crash) that had not ended, in the
   * order they were accepted: queued again whatever the queue's limit, each once its composition
   * is found unchanged, or followed again where they still run (the distributed queue).
   */
  resume(jobs: readonly RenderJob[]): Promise<void>;
  find(id: string): Promise<RenderJob | undefined>;
  /**
   * Takes a waiting job out of the queue, or cancels a running one and waits until its render
   * has cleaned up. Returns the job (in its final state), or undefined for an unknown id.
   */
  cancel(id: string): Promise<RenderJob | undefined>;
  /** cancel() of each id (unknown ones are skipped), the waiting ones taken out of the queue together. */
  cancelMany(ids: readonly string[]): Promise<void>;
  counts(): Promise<QueueCounts>;
  /**
   * Refuses new jobs, cancels the waiting ones, lets running ones finish for `graceMs`, then
   * cancels those still running. Resolves when nothing runs.
   */
  shutdown(graceMs: number): Promise<void>;
}

export class QueueFullError extends Error {
  override name = "QueueFullError";
  /** `submitted` requests (a batch's rows) would have `wouldWait` of them wait behind the `waiting` ones. */
  constructor(
    readonly maxQueue: number,
    batch?: { submitted: number; wouldWait: number; waiting: number },
  ) {
    super(
      batch && batch.submitted > 1
        ? `the queue has no room for this batch: ${batch.wouldWait} of its ${batch.submitted} rows would wait behind ${batch.waiting} waiting requests, and ${maxQueue} may wait (the server's --max-queue); retry later, or send fewer rows`
        : `the queue is full: ${maxQueue} requests are already waiting; retry later`,
    );
  }
}

export class QueueClosedError extends Error {
  override name = "QueueClosedError";
  constructor() {
    super("the server is shutting down and accepts no new work");
  }
}

/** A job's input would be over the execution input cap: refused before it is queued. */
export class JobPayloadTooLargeError extends Error {
  override name = "JobPayloadTooLargeError";
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      `the render job's input is ${(bytes / 1024).toFixed(1)} KiB, over the ${limit / 1024} KiB cap on a job's input; ` +
        "pass assets as project files or URLs in variables, never inline",
    );
  }
}

/** The backend's store (Redis) cannot be reached; the request may be retried later. */
export class QueueUnavailableError extends Error {
  override name = "QueueUnavailableError";
  constructor(reason: string) {
    super(`the render queue is unavailable: ${reason}`);
  }
}
