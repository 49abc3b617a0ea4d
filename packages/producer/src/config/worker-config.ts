import { DEFAULT_SHUTDOWN_GRACE_SECONDS, integerIn, outputsDir, projectsDir, queueUrl, ServerConfigError } from "./server-config.js";

/** Everything `compose worker` needs to start, validated. */
export interface WorkerConfig {
  /** The Redis URL the server and every worker share. */
  queue: string;
  /** Absolute: the same projects the servers resolve requests against (shared storage). */
  projectsDir: string;
  /** Absolute: the same outputs the servers serve from (shared storage); created if missing. */
  outputsDir: string;
  /** Render tasks (whole renders or chunks) this process runs at once. */
  concurrency: number;
  /**
   * How long a task may go without its worker renewing its lock before other workers take it
   * as lost (the worker died) and run it again. Locks are renewed at half this interval.
   */
  stallTimeoutMs: number;
  /** How long SIGTERM lets running tasks finish before handing them back to the queue. */
  shutdownGraceMs: number;
}

/** `compose worker` flags as commander hands them over. */
export interface WorkerFlags {
  queue?: string;
  projects?: string;
  outputs?: string;
  concurrency?: string;
  stallTimeout?: string;
  shutdownGrace?: string;
}

export const WORKER_CONCURRENCY = { min: 1, max: 8, default: 1 } as const;
export const DEFAULT_STALL_TIMEOUT_SECONDS = 30;

/** Seconds, possibly fractional (tests use a few seconds), from 1 to 3600. */
function seconds(text: string, flag: string): number {
  const value = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= 3600)) throw new ServerConfigError(`${flag} must be a number of seconds from 1 to 3600 (got ${text})`);
  return Math.round(value * 1000);
}

/** Validates the flags of `compose worker`, reporting the first problem. */
export function workerConfigFromFlags(flags: WorkerFlags, cwd: string): WorkerConfig {
  if (flags.queue === undefined) throw new ServerConfigError("--queue redis://HOST:PORT is required: the Redis the servers queue renders on");
  const { min, max, default: fallback } = WORKER_CONCURRENCY;
  return {
    queue: queueUrl(flags.queue, "--queue"),
    projectsDir: projectsDir(flags.projects, cwd),
    outputsDir: outputsDir(flags.outputs, cwd),
    concurrency: flags.concurrency === undefined ? fallback : integerIn(flags.concurrency, "--concurrency", min, max),
    stallTimeoutMs: seconds(flags.stallTimeout ?? String(DEFAULT_STALL_TIMEOUT_SECONDS), "--stall-timeout"),
    shutdownGraceMs: integerIn(flags.shutdownGrace ?? String(DEFAULT_SHUTDOWN_GRACE_SECONDS), "--shutdown-grace", 0, 3600) * 1000,
  };
}
