import { hostname } from "node:os";
import { mkdir, realpath, rm } from "node:fs/promises";
import { Queue, QueueEvents, UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { CONCURRENT_RENDERS, type RenderErrorCode } from "@compose/core";
import { removeOrphanedStaging, RenderError, type RenderFinishedEvent } from "@compose/renderer";
import { graceWindows } from "../lifetime/shutdown-grace.js";
import { within } from "../lifetime/within.js";
import type { WorkerConfig } from "../config/worker-config.js";
import type { RenderSettings } from "../jobs/render-executor.js";
import { coordinate, tasksEnded, TaskFailure } from "./coordinator.js";
import {
  CANCEL_CHANNEL,
  cancelledKey,
  checkRenderJobData,
  checkTaskData,
  chunkDirectory,
  decodeFailure,
  encodeFailure,
  InvalidJobError,
  QUEUE_PREFIX,
  seesOutputsMark,
  RENDERS_QUEUE,
  TASKS_QUEUE,
  type RenderJobData,
  type TaskData,
} from "./protocol.js";
import { checkReachable, CLOSE_WAIT_MS, lastEventId, redisClient } from "./redis-connection.js";

import { describeTask, outputFile, runTask, type TaskResult } from "./tasks.js";

/** How often a running task asks Redis whether its request is still under way (ms). */
const REQUEST_CHECK_MS = 1000;

export interface RenderWorkerOptions {
  /** Renderer settings of this machine (capture mode, ready timeout). */
  renderSettings?: RenderSettings;
  /** One line per task started, finished, failed or handed back, and per problem with the queue. */
  log?: (line: string) => void;
}

export interface RenderWorker {
  /**
   * Takes no more work; running tasks may finish for `graceMs`, then go back to the queue for
   * another worker, as do the requests this worker was coordinating. Resolves once all is closed.
   */
  close(graceMs: number): Promise<void>;
}

type StopReason = "cancelled" | "shutdown";

interface Activity {
  requestId: string;
  kind: "coordinator" | "task";
  controller: AbortController;
  reason?: StopReason;
}

/** What runs in this process, by request, so a cancel message or a shutdown can stop it. */
class Activities {
  private readonly all = new Set<Activity>();

  begin(requestId: string, kind: Activity["kind"]): Activity {
    const activity: Activity = { requestId, kind, controller: new AbortController() };
    this.all.add(activity);
    return activity;
  }

  end(activity: Activity): void {
    this.all.delete(activity);
    if (this.all.size === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  private readonly waiters: Array<() => void> = [];

  /** Resolves once nothing runs. */
  idle(): Promise<void> {
    return this.all.size === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  stop(reason: StopReason, which: (activity: Activity) => boolean): void {
    for (const activity of this.all) {
      if (!which(activity) || activity.controller.signal.aborted) continue;
      activity.reason = reason;
      activity.controller.abort(new RenderError("cancelled", reason === "shutdown" ? "the worker is shutting down" : "render cancelled"));
    }
  }
}

/** A failure as BullMQ keeps it: `code: message`. */
function failureOf(error: unknown, activity: Activity): { code: RenderErrorCode; message: string } {
  if (activity.reason === "cancelled") return { code: "cancelled", message: "render cancelled" };
  if (error instanceof TaskFailure || error instanceof UnrecoverableError) return decodeFailure(error.message);
  if (error instanceof RenderError) return { code: error.code, message: error.message };
  return { code: "internal-error", message: error instanceof Error ? error.message : String(error) };
}

/**
 * `compose worker`: takes jobs from the cluster's queues. Requests (the renders queue, whose
 * global concurrency is the servers' maxConcurrentRenders) are coordinated here: light work that
 * holds the request's slot while its tasks run. Tasks (the tasks queue: whole renders, plans,
 * chunks, assemblies) are the rendering itself, `config.concurrency` at a time. A task whose
 * worker dies loses its lock and is run again by another worker (BullMQ's stalled-job check).
 */
export async function startRenderWorker(config: WorkerConfig, options: RenderWorkerOptions = {}): Promise<RenderWorker> {
  const log = options.log ?? (() => undefined);
  await checkReachable(config.queue);
  const projectsDir = await realpath(config.projectsDir);
  await mkdir(config.outputsDir, { recursive: true });
  const outputsDir = await realpath(config.outputsDir);
  // A worker killed before left its renders' staging here; only processes of this machine are judged.
  await removeOrphanedStaging(outputsDir);

  const clients: Redis[] = [];
  let lastError = "";
  const logError = (error: Error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    log(`queue: ${error.message}`);
  };
  const connect = (name: string) => {
    const client = redisClient(config.queue, `compose:worker:${name}`);
    client.on("error", logError);
    clients.push(client);
    return client;
  };
  const client = connect("commands");
  const connection = { connection: client, prefix: QUEUE_PREFIX };
  const tasks = new Queue<TaskData>(TASKS_QUEUE, connection);
  tasks.on("error", logError);
  // Where tasks read their request's composition, options and output name.
  const renders = new Queue<RenderJobData>(RENDERS_QUEUE, connection);
  renders.on("error", logError);
  const taskEvents = new QueueEvents(TASKS_QUEUE, {
    connection: connect("task-events"),
    prefix: QUEUE_PREFIX,
    lastEventId: await lastEventId(client, tasks.keys.events!),
  });
  taskEvents.on("error", logError);
  taskEvents.setMaxListeners(0);
  await taskEvents.waitUntilReady();

  const activities = new Activities();
  const subscriber = connect("cancel");
  await subscriber.subscribe(CANCEL_CHANNEL);
  subscriber.on("message", (_channel: string, requestId: string) => activities.stop("cancelled", (activity) => activity.requestId === requestId));

  const stamp = () => new Date().toISOString();
  const taskContext = { projectsDir, outputsDir, renderSettings: options.renderSettings ?? {} };
  const coordinatorContext = { tasks, taskEvents, outputsDir };
  // A worker stops answering for its jobs after this long; others then run them again.
  // The worker's name goes on every job it takes (BullMQ's processedBy): which machine and process holds a request or task.
  const stallSettings = {
    lockDuration: config.stallTimeoutMs,
    stalledInterval: Math.max(500, Math.round(config.stallTimeoutMs / 2)),
    name: `${hostname()}:${process.pid}`,
  };

  /** Gives a job back to the queue (another worker takes it), as BullMQ expects it done. */
  async function handBack(job: Job, token: string | undefined, what: string): Promise<never> {
    if (token) await job.moveToWait(token);
    log(`${stamp()} handed back ${job.id} (${what})`);
    throw new WaitingError();
  }

  /** Refuses job data no server writes before any of it becomes a path; such a job is not retried. */
  function checked<T>(job: Job, data: unknown, check: (data: unknown) => T): T {
    try {
      return check(data);
    } catch (error) {
      if (!(error instanceof InvalidJobError)) throw error;
      log(`${stamp()} refused ${job.id}: invalid-job: ${error.message}`);
      throw new UnrecoverableError(encodeFailure("invalid-job", error.message));
    }
  }

  /**
   * Why the request has ended, as Redis tells it (cancelled, failed, or gone: a Redis restarted
   * without persistence), or undefined while it goes on. Its client has been told it ended, so
   * nothing of it may be written from then on.
   */
  async function requestEnded(requestId: string): Promise<string | undefined> {
    if (await client.exists(cancelledKey(requestId))) return "it was cancelled";
    const state = await renders.getJobState(requestId);
    if (state === "unknown") return "it is no longer in the queue";
    return state === "failed" ? "it failed" : undefined;
  }

  /** Stops the activity as soon as its request has ended; returns the function that stops watching. */
  function stopWhenRequestEnds(activity: Activity): () => void {
    let asking = false;
    const timer = setInterval(() => {
      if (asking) return;
      asking = true;
      requestEnded(activity.requestId)
        .then((why) => why && activities.stop("cancelled", (other) => other === activity))
        // Redis unreachable tells nothing: the task goes on, and is asked again.
        .catch(() => undefined)
        .finally(() => (asking = false));
    }, REQUEST_CHECK_MS);
    return () => clearInterval(timer);
  }

  /** A worker that does not see the server's outputs would write where nobody serves them: the request fails, saying so. */
  function requireSharedOutputs(request: RenderJobData): void {
    if (seesOutputsMark(outputsDir, request)) return;
    const message = `worker ${stallSettings.name} does not see the outputs directory of the server that accepted this request (its mark is not in this worker's --outputs): give every worker the servers' shared outputs directory`;
    throw new UnrecoverableError(encodeFailure("outputs-not-shared", message));
  }

  const processTask = async (job: Job<TaskData>, token?: string): Promise<TaskResult> => {
    checked(job, job.data, checkTaskData);
    const activity = activities.begin(job.data.requestId, "task");
    const what = describeTask(job.data);
    const startedAt = Date.now();
    log(`${stamp()} started ${job.id} (${what})`);
    const stopWatching = stopWhenRequestEnds(activity);
    try {
      if (await client.exists(cancelledKey(job.data.requestId))) activities.stop("cancelled", (other) => other === activity);
      if (activity.controller.signal.aborted) throw activity.controller.signal.reason;
      const stored = await renders.getJob(job.data.requestId);
      if (!stored) throw new RenderError("cancelled", `request ${job.data.requestId} is no longer in the queue`);
      const request = checked(stored, stored.data, checkRenderJobData);
      requireSharedOutputs(request);
      const result = await runTask(job, request, taskContext, activity.controller.signal);
      if (job.data.kind === "render" || job.data.kind === "assemble") await removeIfEnded(request);
      log(`${stamp()} finished ${job.id} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
      return result;
    } catch (error) {
      if (activity.reason === "shutdown") return handBack(job, token, what);
      const { code, message } = failureOf(error, activity);
      log(`${stamp()} failed ${job.id}: ${code}: ${message}`);
      throw new Error(encodeFailure(code, message));
    } finally {
      stopWatching();
      activities.end(activity);
    }
  };

  /** An output committed for a request that ended meanwhile is removed: its client was told there is none. */
  async function removeIfEnded(request: RenderJobData): Promise<void> {
    const why = await requestEnded(request.requestId);
    if (!why) return;
    await rm(outputFile(outputsDir, request.outputName), { recursive: true, force: true });
    throw new RenderError("cancelled", `request ${request.requestId} ended while its output was being written (${why}): the output was removed`);
  }

  const processRender = async (job: Job<RenderJobData>, token?: string): Promise<RenderFinishedEvent> => {
    const { requestId } = checked(job, job.data, checkRenderJobData);
    const activity = activities.begin(requestId, "coordinator");
    const created: string[] = [];
    try {
      if (await client.exists(cancelledKey(requestId))) activities.stop("cancelled", (other) => other === activity);
      if (activity.controller.signal.aborted) throw activity.controller.signal.reason;
      requireSharedOutputs(job.data);
      const result = await coordinate(job, coordinatorContext, activity.controller.signal, created);
      await Promise.all(created.map((id) => tasks.remove(id).catch(() => undefined)));
      return result;
    } catch (error) {
      if (activity.reason === "shutdown") return handBack(job, token, `coordination of ${requestId}`);
      const { code, message } = failureOf(error, activity);
      // The request has failed or was cancelled: its waiting tasks leave the queue, its running
      // ones stop wherever they run, and it ends once they have (their partial outputs gone).
      await client.publish(CANCEL_CHANNEL, requestId).catch(() => undefined);
      await Promise.all(created.map((id) => tasks.remove(id).catch(() => undefined)));
      await tasksEnded(coordinatorContext, created, 2 * config.stallTimeoutMs + 10_000);
      await Promise.all(created.map((id) => tasks.remove(id).catch(() => undefined)));
      await rm(chunkDirectory(outputsDir, requestId), { recursive: true, force: true });
      throw new Error(encodeFailure(code, message));
    } finally {
      activities.end(activity);
    }
  };

  const renderWorker = new Worker<RenderJobData, RenderFinishedEvent>(RENDERS_QUEUE, processRender, {
    ...connection,
    // Coordination is light; the queue's global concurrency is what limits renders.
    concurrency: CONCURRENT_RENDERS.max,
    maxStalledCount: 5,
    ...stallSettings,
  });
  const taskWorker = new Worker<TaskData, TaskResult>(TASKS_QUEUE, processTask, {
    ...connection,
    concurrency: config.concurrency,
    maxStalledCount: 2,
    ...stallSettings,
  });
  for (const worker of [renderWorker, taskWorker]) worker.on("error", logError);
  await Promise.all([renderWorker.waitUntilReady(), taskWorker.waitUntilReady()]);

  let closing: Promise<void> | undefined;
  return {
    close(graceMs) {
      closing ??= (async () => {
        // Coordination resumes at once on another worker: nothing is lost by handing it back now.
        activities.stop("shutdown", (activity) => activity.kind === "coordinator");
        // Waits on what runs here, not on Redis: with Redis unreachable, the queues never answer.
        const closed = Promise.all([renderWorker.close(), taskWorker.close()]);
        const { finishMs, cancelMs } = graceWindows(graceMs);
        await within(activities.idle(), finishMs);
        activities.stop("shutdown", () => true);
        await within(activities.idle(), cancelMs);
        await within(closed, CLOSE_WAIT_MS);
        await within(Promise.all([renderWorker.close(true), taskWorker.close(true), taskEvents.close(), tasks.close(), renders.close()]), CLOSE_WAIT_MS);
        for (const each of clients) each.disconnect();
      })();
      return closing;
    },
  };
}
