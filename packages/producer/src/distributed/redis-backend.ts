import { basename, join } from "node:path";
import { Queue, QueueEvents, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { withDeadline, type RenderFinishedEvent } from "@compose/renderer";
import { isFinalEvent } from "../jobs/job-events.js";
import { RenderJob } from "../jobs/render-job.js";
import { graceWindows } from "../lifetime/shutdown-grace.js";
import { within } from "../lifetime/within.js";
import { QueueClosedError, QueueFullError, QueueUnavailableError, type QueueCounts, type RenderBackend } from "../queue/render-backend.js";
import { RETAINED_ENDED_JOBS } from "../queue/render-queue.js";
import {
  CANCEL_CHANNEL,
  cancelledKey,
  checkPayloadSize,
  decodeFailure,
  checkRenderJobData,
  isRelayedEvent,
  leaveOutputsMark,
  QUEUE_PREFIX,
  RENDERS_QUEUE,
  RETAIN_SECONDS,
  type RenderJobData,
} from "./protocol.js";
import { checkReachable, CLOSE_WAIT_MS, lastEventId, redisClient } from "./redis-connection.js";

/** A read that Redis has not answered by then is a 503, well within 2 s: a client polling the queue is not held up. */
const READ_ANSWER_MS = 1500;

export interface RedisBackendOptions {
  /** `redis://HOST:PORT`, shared with every worker and other servers. */
  url: string;
  /** Set as the renders queue's global concurrency: it holds across all workers together. */
  maxConcurrentRenders: number;
  /** Requests allowed to wait in the whole cluster; one more is refused. */
  maxQueue: number;
  /** Frames per chunk; absent, each render is one task on one worker. */
  chunkSize?: number | undefined;
  /** This server's outputs directory, where requests accepted by other servers have their outputs too. */
  outputsDir: string;
  /** This server's mark, left in its outputs directory and named by each of its jobs, so workers can tell they see that directory. */
  outputsMark: string;
  /** How often followed jobs are checked against Redis, in case an event was missed (ms). */
  reconcileIntervalMs?: number;
  logError?: (line: string) => void;
}

/** A submission Redis has not taken by then is refused (503) and marked cancelled, so it never runs unseen. */
const SUBMIT_ANSWER_MS = 10_000;

/** How long cancel() waits for the workers to stop a running render before answering anyway. */
const CANCEL_WAIT_MS = 60_000;

interface Followed {
  job: RenderJob;
  /** Accepted by this server (rather than mirrored from another one): it answers for its end. */
  own: boolean;
  /** In Redis (submit has added it): from then on, a missing BullMQ job means it is gone. */
  added: boolean;
  /** Told it waits, so each later change of place is announced too. */
  announced: boolean;
  cancelling: boolean;
  /** The renderer's `started` has been passed on. */
  heardStart: boolean;
  /** The highest capture frame passed on. */
  frames: number;
}

function ended(job: RenderJob): Promise<void> {
  if (job.terminal) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = job.subscribe((event) => {
      if (isFinalEvent(event)) {
        unsubscribe();
        resolve();
      }
    });
  });
}

function isRenderJobData(data: unknown): data is RenderJobData {
  try {
    checkRenderJobData(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * The distributed backend of `compose serve --queue redis://…`: each request is a BullMQ job of
 * the renders queue, whose global concurrency is maxConcurrentRenders, so the limit and FIFO
 * order hold across every worker and every server sharing the Redis. `compose worker` processes
 * run the jobs; this server follows them through the queue's event stream and mirrors each one
 * into a RenderJob, so the HTTP layer and its streams work as with the in-process queue.
 */
export class RedisRenderBackend implements RenderBackend {
  private readonly followed = new Map<string, Followed>();
  private readonly endedIds: string[] = [];
  private closed = false;
  private positionsTimer: NodeJS.Timeout | undefined;
  private readonly reconcileTimer: NodeJS.Timeout;
  private reconciling = false;
  private lastLoggedError = "";

  /** Checks that Redis answers, sets the cluster's concurrency limit and starts following events. */
  static async connect(options: RedisBackendOptions): Promise<RedisRenderBackend> {
    await checkReachable(options.url);
    await leaveOutputsMark(options.outputsDir, options.outputsMark);
    // Commands of HTTP requests fail after a few reconnection attempts instead of hanging.
    const client = redisClient(options.url, "compose:serve", { maxRetriesPerRequest: 3 });
    const eventsClient = redisClient(options.url, "compose:serve:events");
    const queue = new Queue<RenderJobData>(RENDERS_QUEUE, { connection: client, prefix: QUEUE_PREFIX });
    await queue.waitUntilReady();
    await queue.setGlobalConcurrency(options.maxConcurrentRenders);
    const events = new QueueEvents(RENDERS_QUEUE, {
      connection: eventsClient,
      prefix: QUEUE_PREFIX,
      lastEventId: await lastEventId(client, queue.keys.events!),
    });
    await events.waitUntilReady();
    return new RedisRenderBackend(options, client, eventsClient, queue, events);
  }

  private constructor(
    private readonly options: RedisBackendOptions,
    private readonly client: Redis,
    private readonly eventsClient: Redis,
    private readonly queue: Queue<RenderJobData>,
    private readonly events: QueueEvents,
  ) {
    const logError = (error: Error) => this.logError(error.message);
    for (const emitter of [client, eventsClient]) emitter.on("error", logError);
    queue.on("error", logError);
    events.on("error", logError);
    events.on("active", ({ jobId }) => this.onActive(jobId));
    events.on("progress", ({ jobId, data }) => this.onProgress(jobId, data));
    events.on("completed", ({ jobId, returnvalue }) => this.onCompleted(jobId, returnvalue as unknown as RenderFinishedEvent));
    events.on("failed", ({ jobId, failedReason }) => this.onFailed(jobId, failedReason));
    for (const name of ["waiting", "removed", "stalled"] as const) events.on(name, () => this.schedulePositions());
    this.reconcileTimer = setInterval(() => void this.reconcile(), options.reconcileIntervalMs ?? 1000);
  }

  async submit(job: RenderJob): Promise<void> {
    return this.submitMany([job]);
  }

  async submitMany(jobs: readonly RenderJob[]): Promise<void> {
    if (this.closed) throw new QueueClosedError();
    const data = jobs.map((job): RenderJobData => {
      const { composition, output, options, metadata, batch } = job.spec;
      return {
        requestId: job.id,
        composition,
        outputName: basename(output),
        options,
        chunkSize: this.options.chunkSize ?? null,
        createdAt: job.snapshot().createdAt,
        outputsMark: this.options.outputsMark,
        ...(metadata && { metadata }),
        ...(batch && { batch }),
      };
    });
    // Before anything reaches Redis: a refused job leaves no trace.
    data.forEach(checkPayloadSize);
    const { limit, active, waiting } = await this.redis(async () => {
      const [limit, counts] = await Promise.all([this.limit(), this.queue.getJobCounts("active", "waiting")]);
      return { limit, active: counts.active ?? 0, waiting: counts.waiting ?? 0 };
    });
    // Those already waiting take the free slots first (FIFO); slots left over are these requests'.
    const free = Math.max(0, limit - active - waiting);
    const wouldWait = Math.max(0, jobs.length - free);
    if (wouldWait > 0 && waiting + wouldWait > this.options.maxQueue)
      throw new QueueFullError(this.options.maxQueue, { submitted: jobs.length, wouldWait, waiting });
    const followed = jobs.map((job, index) => this.follow(job, { own: true, announced: index >= free }));
    const retain = { removeOnComplete: { age: RETAIN_SECONDS }, removeOnFail: { age: RETAIN_SECONDS } };
    try {
      const added = this.queue.addBulk(data.map((each) => ({ name: "render", data: each, opts: { jobId: each.requestId, ...retain } })));
      await withDeadline(added, SUBMIT_ANSWER_MS, () => {
        // Redis may still take the jobs once it answers again, long after this client was told
        // 503: the marks, sent after them on the same connection, stop them at once then.
        for (const job of jobs) void this.client.set(cancelledKey(job.id), "1", "EX", RETAIN_SECONDS).catch(() => undefined);
        added.catch(() => undefined);
        throw new Error(`Redis did not take the request within ${SUBMIT_ANSWER_MS / 1000} s`);
      });
    } catch (error) {
      for (const job of jobs) this.followed.delete(job.id);
      throw new QueueUnavailableError((error as Error).message);
    }
    for (const each of followed) each.added = true;
    // A worker may already have taken one (its `active` event can beat this answer).
    jobs.forEach((job, index) => {
      if (index >= free && job.snapshot().state === "queued") job.waiting(waiting + index - free + 1);
    });
    if (wouldWait > 0) this.schedulePositions();
  }

  /**
   * The cluster's limit as Redis holds it. A Redis restarted without persistence has forgotten
   * it, and its workers would then take every request at once: the limit is set again before
   * this server queues a request or reports the queue, so no request is ever in Redis without it.
   */
  private async limit(): Promise<number> {
    const stored = await this.queue.getGlobalConcurrency();
    if (stored !== null) return stored;
    await this.queue.setGlobalConcurrency(this.options.maxConcurrentRenders);
    return this.options.maxConcurrentRenders;
  }

  async find(id: string): Promise<RenderJob | undefined> {
    const known = this.followed.get(id);
    if (known) return known.job;
    return this.mirror(id);
  }

  async cancel(id: string): Promise<RenderJob | undefined> {
    const job = await this.find(id);
    if (!job) return undefined;
    if (!job.terminal) await this.stop(this.followed.get(id)!, "render cancelled before it started");
    return job;
  }

  async cancelMany(ids: readonly string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.cancel(id)));
  }

  async counts(): Promise<QueueCounts> {
    return this.redis(async () => {
      const [limit, counts] = await Promise.all([this.limit(), this.queue.getJobCounts("active", "waiting")]);
      return {
        maxConcurrentRenders: limit,
        activeRenders: counts.active ?? 0,
        queuedRenders: counts.waiting ?? 0,
      };
    }, READ_ANSWER_MS);
  }

  /**
   * The server's own requests end as with the in-process queue: waiting ones are cancelled,
   * running ones may finish within the grace period and are cancelled after it. Requests of other
   * servers go on; the workers do not depend on this process.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.closed = true;
    const own = () => [...this.followed.values()].filter((followed) => followed.own && !followed.job.terminal);
    // With Redis unreachable the stops fail; the jobs still end here, below.
    const stop = (followed: Followed, message: string) => this.stop(followed, message).catch(() => undefined);
    await Promise.all(
      own()
        .filter((followed) => followed.job.snapshot().state === "queued")
        .map((followed) => stop(followed, "the server shut down before the render started")),
    );
    await within(
      Promise.all(own().map((followed) => ended(followed.job))).then(() => undefined),
      graceWindows(graceMs).finishMs,
    );
    await Promise.all(own().map((followed) => stop(followed, "the server shut down")));
    // Workers that could not be reached in time: the streams still end.
    for (const followed of own()) followed.job.fail("cancelled", "the server shut down");
    clearInterval(this.reconcileTimer);
    clearTimeout(this.positionsTimer);
    await within(this.events.close(), CLOSE_WAIT_MS);
    await within(this.queue.close(), CLOSE_WAIT_MS);
    this.client.disconnect();
    this.eventsClient.disconnect();
  }

  /** Takes a waiting job out of the queue, or has the workers stop a running one and waits (bounded) for its end. */
  private async stop(followed: Followed, waitingMessage: string): Promise<void> {
    const { job } = followed;
    followed.cancelling = true;
    try {
      // The mark stops the job wherever and whenever it starts or restarts, even on a worker that
      // misses the message below.
      await this.client.set(cancelledKey(job.id), "1", "EX", RETAIN_SECONDS);
      if (await this.removeIfWaiting(followed, waitingMessage)) return;
      await this.client.publish(CANCEL_CHANNEL, job.id);
    } catch (error) {
      throw new QueueUnavailableError((error as Error).message);
    }
    await within(ended(job), CANCEL_WAIT_MS);
  }

  /** True when the job was still waiting and is now out of the queue (and cancelled). */
  private async removeIfWaiting(followed: Followed, message: string): Promise<boolean> {
    const bullJob = await this.queue.getJob(followed.job.id);
    if (!bullJob || !(await bullJob.isWaiting())) return false;
    try {
      await bullJob.remove();
    } catch {
      // A worker took it meanwhile (it is locked): it is running, and the cancel message stops it.
      return false;
    }
    const started = followed.job.snapshot().state === "running";
    followed.job.fail("cancelled", started ? "render cancelled" : message);
    this.retire(followed.job.id);
    this.schedulePositions();
    return true;
  }

  private follow(job: RenderJob, how: { own: boolean; announced: boolean }): Followed {
    const followed: Followed = { job, own: how.own, added: false, announced: how.announced, cancelling: false, heardStart: false, frames: 0 };
    this.followed.set(job.id, followed);
    return followed;
  }

  /** A request another server accepted (or this one before a restart): followed from now on. */
  private async mirror(id: string): Promise<RenderJob | undefined> {
    const bullJob = await this.redis(() => this.queue.getJob(id), READ_ANSWER_MS);
    if (!bullJob || !isRenderJobData(bullJob.data)) return undefined;
    // Another lookup of the same id may have won the race.
    const known = this.followed.get(id);
    if (known) return known.job;
    const { data } = bullJob;
    const job = new RenderJob(
      id,
      {
        composition: data.composition,
        file: "",
        output: join(this.options.outputsDir, data.outputName),
        options: data.options,
        ...(data.metadata && { metadata: data.metadata }),
        ...(data.batch && { batch: data.batch }),
      },
      { createdAt: new Date(data.createdAt ?? bullJob.timestamp) },
    );
    await this.catchUp(job, bullJob, false);
    return job;
  }

  /** Follows `job` from now on, as the BullMQ job that is its request is now. */
  private async catchUp(job: RenderJob, bullJob: Job<RenderJobData>, own: boolean): Promise<void> {
    const followed = this.follow(job, { own, announced: true });
    followed.added = true;
    const state = await this.redis(() => bullJob.getState(), READ_ANSWER_MS);
    if (state === "active") job.start();
    else if (state === "completed") this.onCompleted(job.id, bullJob.returnvalue as unknown as RenderFinishedEvent);
    else if (state === "failed") this.onFailed(job.id, bullJob.failedReason);
    else await this.refreshPositions();
  }

  /**
   * This server's requests from before its restart: the workers went on with them meanwhile, so
   * each is followed again where Redis still has it; one Redis lost (a restart without
   * persistence) is worker-lost, as it would have been had this server been up.
   */
  async resume(jobs: readonly RenderJob[]): Promise<void> {
    for (const job of jobs) {
      const bullJob = await this.redis(() => this.queue.getJob(job.id), READ_ANSWER_MS);
      if (bullJob && isRenderJobData(bullJob.data)) {
        await this.catchUp(job, bullJob, true);
        continue;
      }
      this.follow(job, { own: true, announced: false });
      job.fail("worker-lost", "the render's job is no longer in the queue");
      this.retire(job.id);
    }
  }

  private live(id: string): Followed | undefined {
    const followed = this.followed.get(id);
    return followed && !followed.job.terminal ? followed : undefined;
  }

  private ensureStarted(followed: Followed): void {
    if (followed.job.snapshot().state === "queued") followed.job.start();
  }

  private onActive(id: string): void {
    const followed = this.live(id);
    if (followed) this.ensureStarted(followed);
    this.schedulePositions();
  }

  /** The renderer's events as the workers relayed them, passed on as they are. */
  private onProgress(id: string, data: unknown): void {
    const followed = this.live(id);
    if (!followed || !isRelayedEvent(data)) return;
    this.ensureStarted(followed);
    // A task or coordinator that runs again (its worker died) starts over: clients hear one
    // `started`, and capture counts that only grow (chunks also report out of order).
    if (data.type === "started") {
      if (followed.heardStart) return;
      followed.heardStart = true;
    } else if (data.type === "progress" && data.stage === "capture") {
      if (data.frame <= followed.frames) return;
      followed.frames = data.frame;
    }
    // An event the schema refuses (a worker of another version) is not passed on; the render goes on.
    try {
      followed.job.record(data);
    } catch (error) {
      this.logError(`render ${id}: ${(error as Error).message}`);
    }
  }

  private onCompleted(id: string, finished: RenderFinishedEvent): void {
    const followed = this.live(id);
    if (!followed) return;
    this.ensureStarted(followed);
    // A result the schema refuses still ends the request, as the failure it is.
    try {
      followed.job.record(finished);
    } catch (error) {
      followed.job.fail("internal-error", (error as Error).message);
    }
    this.retire(id);
  }

  private onFailed(id: string, reason: string | undefined): void {
    const followed = this.live(id);
    if (!followed) return;
    const { code, message } = decodeFailure(reason);
    if (code !== "cancelled") this.ensureStarted(followed);
    followed.job.fail(code, message);
    this.retire(id);
  }

  private retire(id: string): void {
    this.endedIds.push(id);
    if (this.endedIds.length > RETAINED_ENDED_JOBS) this.followed.delete(this.endedIds.shift()!);
  }

  private schedulePositions(): void {
    if (this.positionsTimer || this.closed) return;
    this.positionsTimer = setTimeout(() => {
      this.positionsTimer = undefined;
      this.refreshPositions().catch((error: Error) => this.logError(error.message));
    }, 20);
  }

  /** Each waiting request that was told it waits hears its place (1 runs next) whenever it changes. */
  private async refreshPositions(): Promise<void> {
    const waiting = [...this.followed.values()].filter((followed) => followed.announced && followed.job.snapshot().state === "queued");
    if (waiting.length === 0) return;
    // The wait list holds ids, newest first; workers take from the other end.
    const ids = (await this.client.lrange(this.queue.keys.wait!, 0, -1)).reverse();
    const place = new Map(ids.map((id, i) => [id, i + 1]));
    for (const followed of waiting) {
      const position = place.get(followed.job.id);
      if (position !== undefined && followed.job.snapshot().state === "queued") followed.job.waiting(position);
    }
  }

  /** Catches up with whatever the event stream did not deliver (a reconnection, a race at start). */
  private async reconcile(): Promise<void> {
    if (this.reconciling || this.closed) return;
    this.reconciling = true;
    try {
      for (const followed of [...this.followed.values()]) {
        if (followed.job.terminal || !followed.added) continue;
        const id = followed.job.id;
        const state = await this.queue.getJobState(id);
        if (state === "completed" || state === "failed") {
          const bullJob = await this.queue.getJob(id);
          if (!bullJob) continue;
          if (state === "completed") this.onCompleted(id, bullJob.returnvalue as unknown as RenderFinishedEvent);
          else this.onFailed(id, bullJob.failedReason);
        } else if (state === "active") {
          this.onActive(id);
        } else if (state === "unknown") {
          followed.job.fail(
            followed.cancelling ? "cancelled" : "worker-lost",
            followed.cancelling ? "render cancelled" : "the render's job is no longer in the queue",
          );
          this.retire(id);
        } else if (followed.cancelling) {
          await this.removeIfWaiting(followed, "render cancelled before it started");
        }
      }
    } catch (error) {
      this.logError((error as Error).message);
    } finally {
      this.reconciling = false;
    }
  }

  /** A Redis operation whose failure is a 503; a read gives up after `answerWithinMs`. */
  private async redis<T>(operation: () => Promise<T>, answerWithinMs?: number): Promise<T> {
    try {
      if (answerWithinMs === undefined) return await operation();
      return await withDeadline(operation(), answerWithinMs, () => {
        throw new Error(`Redis did not answer within ${answerWithinMs / 1000} s`);
      });
    } catch (error) {
      const message = (error as Error).message;
      // ioredis's own words for a Redis it cannot reach name one of its options, not the problem.
      throw new QueueUnavailableError(/max retries per request/i.test(message) ? "Redis does not answer" : message);
    }
  }

  /** Redis errors repeat while it is down: each distinct one is reported once. */
  private logError(message: string): void {
    if (message === this.lastLoggedError) return;
    this.lastLoggedError = message;
    this.options.logError?.(`queue: ${message}`);
  }
}
