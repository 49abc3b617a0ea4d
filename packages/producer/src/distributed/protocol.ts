/**
 * What servers and workers agree on through Redis: queue names, the data of each job, what
 * their progress and results carry, and how a failure's code travels in BullMQ's failedReason.
 */
import { join } from "node:path";
import { outputExtension, type OutputFormat, type RenderOptions } from "@compose/core";
import { audioFileName, type HistoryPath } from "@compose/renderer";
import { MAX_BODY_BYTES } from "../config/server-config.js";
import { JobPayloadTooLargeError } from "../queue/render-backend.js";

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

/** SPEC.md's execution input cap: the data of any job, as JSON, is at most this. */
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
}

/**
 * A job of the tasks queue. It names its request and nothing more of it: the worker reads the
 * composition, options and output name from the request's job, so a task's input stays a few
 * hundred bytes whatever the request's size (only the request's job is held to the cap).
 */
export type TaskData =
  | { kind: "render"; requestId: string }
  | { kind: "plan"; requestId: string }
  | { kind: "chunk"; requestId: string; index: number; count: number; frames: { start: number; end: number } }
  | { kind: "assemble"; requestId: string; count: number; audio: boolean; facts: OutputFacts & { history: HistoryPath } };

/** What a finished render reports, less its path (which differs between machines). */
export interface OutputFacts {
  format: OutputFormat;
  durationSeconds: number;
  width: number;
  height: number;
  frames: number;
}

export interface RenderResult extends OutputFacts {
  sizeBytes: number;
  /** Whether pages starting after frame 0 replayed history (any chunk's replay counts). */
  history: HistoryPath;
}

export interface PlanResult {
  totalFrames: number;
  durationSeconds: number;
  width: number;
  height: number;
  /** Whether the plan mixed an audio file into the chunk directory. */
  audio: boolean;
}

export interface ChunkResult {
  frames: number;
  history: HistoryPath;
}

/** What job progress carries: the stream's own events, less the request id. */
export type ProgressData =
  | { type: "progress"; stage: "capture" | "assemble"; frame: number; totalFrames: number; percent: number }
  | { type: "warning"; code: string; message: string };

export function taskId(requestId: string, kind: "render" | "plan" | "assemble"): string;
export function taskId(requestId: string, kind: "chunk", index: number): string;
export function taskId(requestId: string, kind: TaskData["kind"], index?: number): string {
  return kind === "chunk" ? `${requestId}.chunk.${index}` : `${requestId}.${kind}`;
}

/** Where a chunked render keeps its chunks and mixed audio: hidden, inside the shared outputs directory. */
export function chunkDirectory(outputsDir: string, requestId: string): string {
  return join(outputsDir, ".compose-chunks", requestId);
}

export function chunkPath(directory: string, index: number, format: OutputFormat): string {
  return join(directory, `chunk-${String(index).padStart(5, "0")}${outputExtension(format)}`);
}

export function chunkAudioPath(directory: string, format: OutputFormat): string {
  return join(directory, audioFileName(format));
}

/** A name a job may write to inside the outputs directory: one plain file or directory name. */
export function isOutputName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && !name.includes("..");
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
export function encodeFailure(code: string, message: string): string {
  return `${code}: ${message}`;
}

/** BullMQ's own reason when a job's workers died more often than allowed. */
const STALLED = /stalled more than allowable limit/i;

export function decodeFailure(reason: string | undefined): { code: string; message: string } {
  const text = reason ?? "";
  const coded = /^([a-z][a-z0-9-]*): ([\s\S]*)$/.exec(text);
  if (coded) return { code: coded[1]!, message: coded[2]! };
  if (STALLED.test(text)) return { code: "worker-lost", message: "the workers running this render stopped responding too many times" };
  return { code: "internal-error", message: text || "the render failed in a worker" };
}
