/**
 * What servers and workers agree on through Redis: queue names, the data of each job, what
 * their progress and results carry, and how a failure's code travels in BullMQ's failedReason.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renderErrorCodeSchema, type RenderErrorCode, type RenderOptions } from "@compose/core";
import type { FrameRange, RenderProgressEvent, RenderStartedEvent, RenderWarningEvent } from "@compose/renderer";
import { MAX_BODY_BYTES } from "../config/server-config.js";
import { JobPayloadTooLargeError } from "../queue/render-backend.js";
import { isOutputName } from "../output/output-files.js";
import type { BatchMembership, RequestMetadata } from "../jobs/request-fields.js";

/** BullMQ key prefix: every key of the cluster starts with `compose:`. */
export const QUEUE_PREFIX = "compose";
/** One job per render request; its global concurrency is maxConcurrentRenders. */
export const RENDERS_QUEUE = "renders";
/** The work itself: whole renders, plans, chunks and joins, one at a time per worker slot. */
export const TASKS_QUEUE = "tasks";
/** Pub/sub channel: a request id published here stops every job of that request, wherever it runs. */
export const CANCEL_CHANNEL = `${QUEUE_PREFIX}:cancel`;
/** Set when a request is cancelled, so a job that starts (or restarts) later stops at once too. */
export const cancelledKey = (requestId: string) => `${QUEUE_PREFIX}:cancelled:${requestId}`;
/** How long finished jobs and cancel marks are kept in Redis. */
export const RETAIN_SECONDS = 24 * 60 * 60;

/** The execution input cap of distributed renders: the data of any job, as JSON, is at most this. */
export const MAX_JOB_PAYLOAD_BYTES = MAX_BODY_BYTES;

/**
 * The data of a request's job in the renders queue. Paths are relative (the composition to the
 * projects directory, the output to the outputs directory), so machines may mount the shared
 * storage anywhere; assets are the project's files, never carried in the job.
 */
export interface RenderJobData {
  requestId: string;
  /** As the client named it, relative to the projects directory. */
  composition: string;
  /** The output's name inside the outputs directory: `<requestId>.<ext>`, or `<requestId>` for png-sequence. */
  outputName: string;
  options: RenderOptions;
  /** Frames per chunk, or null to render in one task. */
  chunkSize: number | null;
  /** When the accepting server created the request (ISO 8601). */
  createdAt: string;
  /** The client's own object, echoed by every server that answers for the request. */
  metadata?: RequestMetadata;
  /** The batch the request is a row of. */
  batch?: BatchMembership;
  /** The accepting server's mark in its outputs directory: a worker that does not see it does not see those outputs. */
  outputsMark?: string;
}

/**
 * A job of the tasks queue. It names its request and nothing more of it: the worker reads the
 * composition, options and output name from the request's job, so a task's input stays a few
 * hundred bytes whatever the request's size (only the request's job is held to the cap).
 */
export type TaskData =
  | { kind: "render"; requestId: string }
  | { kind: "plan"; requestId: string }
  /** `planHash`: the plan's (PlanResult.hash); the task refuses a stored plan that does not have it. */
  | { kind: "chunk"; requestId: string; index: number; count: number; frames: FrameRange; planHash: string }
  | { kind: "assemble"; requestId: string; count: number; planHash: string };

/**
 * What a `plan` task returns: the plan is stored in the chunk directory (planFile) and the tasks
 * that follow are given its hash, and each chunk its range. A `render` or `chunk` task, and a
 * request's job, return the renderer's finished event as it is; an `assemble` task the joined output.
 */
export interface PlanResult {
  /** sha256 of the stored plan's bytes, in hex. */
  hash: string;
  /** One range of output frames per chunk, in order. */
  ranges: FrameRange[];
  totalFrames: number;
  durationSeconds: number;
  width: number;
  height: number;
}

/**
 * What a job's progress carries: the renderer's events about a render under way, as it emits
 * them. Its end is the job's return value (the finished event) or its failedReason.
 */
export type RelayedEvent = RenderStartedEvent | RenderProgressEvent | RenderWarningEvent;

export function isRelayedEvent(event: unknown): event is RelayedEvent {
  const type = (event as { type?: unknown } | null)?.type;
  return type === "started" || type === "progress" || type === "warning";
}

export function taskId(requestId: string, kind: "render" | "plan" | "assemble"): string;
export function taskId(requestId: string, kind: "chunk", index: number): string;
export function taskId(requestId: string, kind: TaskData["kind"], index?: number): string {
  return kind === "chunk" ? `${requestId}.chunk.${index}` : `${requestId}.${kind}`;
}

/**
 * A request id as servers make them (a UUID), or any plain name a path may hold: whoever can
 * write to Redis could otherwise steer a worker's writes and deletions out of --outputs.
 */
export function isRequestId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id);
}

/** Thrown for job data that no server writes: its paths would not be safe to use. */
export class InvalidJobError extends Error {
  override name = "InvalidJobError";
}

function requireRequestId(id: unknown): string {
  if (!isRequestId(id)) throw new InvalidJobError(`the request id ${JSON.stringify(id)?.slice(0, 80)} is not a plain name (letters, digits, - and _)`);
  return id;
}

/** Where a chunked render keeps its chunks and mixed audio: hidden, inside the shared outputs directory. */
export function chunkDirectory(outputsDir: string, requestId: string): string {
  return join(outputsDir, ".compose-chunks", requireRequestId(requestId));
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The request's plan as the plan task stored it, in its chunk directory. */
export function planFile(directory: string): string {
  return join(directory, "plan.json");
}

/** A name a job may write to inside the outputs directory: the rule a request's outputName is held to. */
export { isOutputName };

/** Where a server leaves its mark in its outputs directory (hidden, beside its state): `mark` is a plain name. */
function outputsMarkFile(outputsDir: string, mark: string): string {
  return join(outputsDir, ".compose-server", `outputs-mark-${mark}`);
}

/** Leaves the server's mark in its outputs directory, for workers to find there. */
export async function leaveOutputsMark(outputsDir: string, mark: string): Promise<void> {
  const file = outputsMarkFile(outputsDir, requireRequestId(mark));
  await mkdir(join(outputsDir, ".compose-server"), { recursive: true });
  await writeFile(file, "This file tells compose worker processes that they see this server's outputs directory.\n");
}

/** Whether this machine's outputs directory holds the mark the request's server left in its own: the same directory, shared. */
export function seesOutputsMark(outputsDir: string, data: RenderJobData): boolean {
  return data.outputsMark === undefined || existsSync(outputsMarkFile(outputsDir, data.outputsMark));
}

/** Refuses a request's job whose fields would name paths outside the shared directories. */
export function checkRenderJobData(data: unknown): RenderJobData {
  const candidate = (data ?? {}) as Partial<Record<keyof RenderJobData, unknown>>;
  requireRequestId(candidate.requestId);
  if (typeof candidate.composition !== "string") throw new InvalidJobError("the job names no composition");
  if (!isOutputName(candidate.outputName))
    throw new InvalidJobError(`the output name ${JSON.stringify(candidate.outputName)?.slice(0, 80)} is not a plain file name`);
  if (typeof candidate.options !== "object" || candidate.options === null) throw new InvalidJobError("the job has no render options");
  if (candidate.outputsMark !== undefined && !isRequestId(candidate.outputsMark)) throw new InvalidJobError("the job's outputs mark is not a plain name");
  return data as RenderJobData;
}

/** Refuses a task whose request id or chunk numbers would not make safe paths. */
export function checkTaskData(data: unknown): TaskData {
  const candidate = (data ?? {}) as Record<string, unknown>;
  requireRequestId(candidate.requestId);
  if (!["render", "plan", "chunk", "assemble"].includes(candidate.kind as string))
    throw new InvalidJobError(`the task kind ${JSON.stringify(candidate.kind)?.slice(0, 40)} is unknown`);
  if (candidate.kind === "chunk" || candidate.kind === "assemble") {
    if (!isCount(candidate.count) || (candidate.kind === "chunk" && !isCount(candidate.index))) {
      throw new InvalidJobError("the task's chunk numbers are not whole numbers");
    }
    if (typeof candidate.planHash !== "string") throw new InvalidJobError("the task names no plan hash");
  }
  return data as TaskData;
}

export function payloadBytes(data: unknown): number {
  return Buffer.byteLength(JSON.stringify(data), "utf8");
}

/** Refuses a job whose data is over the cap before it is queued. */
export function checkPayloadSize(data: unknown): void {
  const bytes = payloadBytes(data);
  if (bytes > MAX_JOB_PAYLOAD_BYTES) throw new JobPayloadTooLargeError(bytes, MAX_JOB_PAYLOAD_BYTES);
}

/** A failure's code and message in one line, as BullMQ keeps a job's failedReason. */
export function encodeFailure(code: RenderErrorCode, message: string): string {
  return `${code}: ${message}`;
}

/** BullMQ's own reason when a job's workers died more often than allowed. */
const STALLED = /stalled more than allowable limit/i;

/** A failure's code and message from its failedReason; a code outside the schema's is no failure code, so the reason is told whole. */
export function decodeFailure(reason: string | undefined): { code: RenderErrorCode; message: string } {
  const text = reason ?? "";
  const coded = /^([a-z][a-z0-9-]*): ([\s\S]*)$/.exec(text);
  const code = renderErrorCodeSchema.safeParse(coded?.[1]);
  if (coded && code.success) return { code: code.data, message: coded[2]! };
  if (STALLED.test(text)) return { code: "worker-lost", message: "the workers running this render stopped responding too many times" };
  return { code: "internal-error", message: text || "the render failed in a worker" };
}
