import { mkdirSync, mkdtempSync, rmdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CONCURRENT_RENDERS, MAX_WORKERS } from "@compose/core/options";

/** Everything the server needs to start, validated. */
export interface ServerConfig {
  host: string;
  /** 0 lets the system pick a free port. */
  port: number;
  maxConcurrentRenders: number;
  /** Requests allowed to wait for a slot; one more gets 429. */
  maxQueue: number;
  /** Absolute; compositions are named relative to it and may not leave it. */
  projectsDir: string;
  /** Absolute; created if missing. */
  outputsDir: string;
  /** The state store (requests, batches, webhooks, idempotency keys): absolute; default `<outputsDir>/.compose-server/state.db`. */
  statePath?: string;
  /** When set, every endpoint but /health requires `Authorization: Bearer <token>`. */
  token?: string;
  /** How long SIGTERM lets running renders finish before cancelling them. */
  shutdownGraceMs: number;
  /**
   * `redis://HOST:PORT`: keep requests in a BullMQ queue on this Redis, rendered by `compose worker`
   * processes, instead of in this process. Absent: the in-process queue.
   */
  queue?: string;
  /** With `queue`: split every render into chunks of this many frames, rendered in parallel by the workers. */
  chunkSize?: number;
  /** Browser workers one request may ask for; more is refused with 400 (default DEFAULT_MAX_WORKERS_PER_RENDER). */
  maxWorkersPerRender?: number;
  /** Rows one batch may have; more is refused with 413 (default BATCH_ROW_LIMITS.default). */
  maxBatchRows?: number;
  /** The largest body of a batch request, in bytes; larger is refused with 413 (default BATCH_BODY_MIB_LIMITS.default MiB). */
  maxBatchBodyBytes?: number;
  /** The key webhooks are signed with (HMAC-SHA256); without it, a request naming a webhook is refused. */
  webhookSecret?: string;
}

/** `compose serve` flags as commander hands them over: text, as typed. */
export interface ServeFlags {
  host?: string;
  port?: string;
  maxConcurrentRenders?: string;
  maxQueue?: string;
  projects?: string;
  outputs?: string;
  state?: string;
  token?: string;
  shutdownGrace?: string;
  queue?: string;
  chunkSize?: string;
  maxWorkersPerRender?: string;
  maxBatchRows?: string;
  maxBatchBodyMib?: string;
  webhookSecret?: string;
}

/** A start-up setting the server refuses; the message is the one line the user sees. */
export class ServerConfigError extends Error {
  override name = "ServerConfigError";
}

/** Where the state store is by default, inside the outputs directory: hidden, so never an output's name. */
export function defaultStatePath(outputsDir: string): string {
  return join(outputsDir, ".compose-server", "state.db");
}

/** The cap on an execution input (256 KiB); a render request is one. */
export const MAX_BODY_BYTES = 256 * 1024;

export const DEFAULT_PORT = 9847;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_MAX_QUEUE = 100;
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 30;
/** As many as `workers: auto` ever picks. */
export const DEFAULT_MAX_WORKERS_PER_RENDER = 4;
/** Frames per chunk of a distributed render: from 1 to this. */
export const MAX_CHUNK_SIZE = 1_000_000;
/** Rows of one batch (--max-batch-rows): a batch's rows wait as requests, so the default is the most --max-queue allows. */
export const BATCH_ROW_LIMITS = { min: 1, max: 100_000, default: 10_000 } as const;
/** The body of one batch request in MiB (--max-batch-body-mib): 10,000 rows of a kilobyte each fit in the default. */
export const BATCH_BODY_MIB_LIMITS = { min: 1, max: 1024, default: 16 } as const;

export function integerIn(text: string, source: string, min: number, max: number): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw new ServerConfigError(`${source} must be an integer from ${min} to ${max} (got ${text})`);
  return value;
}

/** A whole-number setting from its flag, else its environment variable, else its default. */
function integerSetting(
  flag: string | undefined,
  names: { flag: string; env: string },
  env: NodeJS.ProcessEnv,
  limits: { min: number; max: number; default: number },
): number {
  // The flag wins over the environment, even when the environment holds nonsense.
  if (flag !== undefined) return integerIn(flag, names.flag, limits.min, limits.max);
  const fromEnv = env[names.env];
  if (fromEnv !== undefined && fromEnv !== "") return integerIn(fromEnv, names.env, limits.min, limits.max);
  return limits.default;
}

/** The render limit from --max-concurrent-renders, else PRODUCER_MAX_CONCURRENT_RENDERS, else the default. */
export function maxConcurrentRenders(flag: string | undefined, env: NodeJS.ProcessEnv): number {
  return integerSetting(flag, { flag: "--max-concurrent-renders", env: "PRODUCER_MAX_CONCURRENT_RENDERS" }, env, CONCURRENT_RENDERS);
}

/** The path's nearest ancestor that exists, and whether it is a directory. */
function nearestExisting(path: string): { path: string; isDirectory: boolean } {
  for (let place = path; ; place = dirname(place)) {
    try {
      return { path: place, isDirectory: statSync(place).isDirectory() };
    } catch {
      if (dirname(place) === place) return { path: place, isDirectory: false };
    }
  }
}

/**
 * The outputs directory, created if missing and checked to take new files, so that a file, a
 * place under a file or a read-only disk is a flag error at start rather than a failure of
 * every render.
 */
export function outputsDir(flag: string | undefined, cwd: string): string {
  const shown = `--outputs ${flag ?? "renders"}`;
  const dir = resolve(cwd, flag ?? "renders");
  const existing = nearestExisting(dir);
  if (!existing.isDirectory) {
    throw new ServerConfigError(
      existing.path === dir ? `${shown} is a file; give a directory (created if missing)` : `${shown} is below a file (${existing.path}); give a directory`,
    );
  }
  try {
    // Checked where it exists: creating a directory on a read-only disk says only ENOENT.
    rmdirSync(mkdtempSync(join(existing.path, ".compose-write-check-")));
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ServerConfigError(`${shown} cannot be written (${code}); give a directory this process may create files in`);
  }
  return dir;
}

/** `--state`: a file path (its directory is created if missing); a directory is refused. */
export function statePath(flag: string, cwd: string): string {
  if (flag.trim() === "") throw new ServerConfigError("--state must be a file path (the state store, created if missing)");
  const path = resolve(cwd, flag);
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // a new file
  }
  if (isDirectory) throw new ServerConfigError(`--state ${flag} is a directory; give the path of a file (the state store, created if missing)`);
  return path;
}

export function projectsDir(flag: string | undefined, cwd: string): string {
  const dir = resolve(cwd, flag ?? ".");
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    // reported below, with the flag's name
  }
  if (!isDirectory) throw new ServerConfigError(`--projects ${flag ?? "."} is not a directory`);
  return dir;
}

/** A secret from its flag, else its environment variable: an empty variable is an unset one; an empty flag is a mistake. */
function secretFrom(flag: string | undefined, names: { flag: string; env: string }, env: NodeJS.ProcessEnv): string | undefined {
  const value = flag ?? (env[names.env] || undefined);
  if (value !== undefined && !/^\S+$/.test(value)) {
    throw new ServerConfigError(`${flag !== undefined ? names.flag : names.env} must be a non-empty token without spaces`);
  }
  return value;
}

/** Validates the flags and environment of `compose serve`, reporting the first problem. */
export function serverConfigFromFlags(flags: ServeFlags, env: NodeJS.ProcessEnv, cwd: string): ServerConfig {
  const host = flags.host ?? DEFAULT_HOST;
  if (host.trim() === "") throw new ServerConfigError("--host must be an address or host name");
  const grace = flags.shutdownGrace ?? String(DEFAULT_SHUTDOWN_GRACE_SECONDS);
  const token = secretFrom(flags.token, { flag: "--token", env: "COMPOSE_TOKEN" }, env);
  const webhookSecret = secretFrom(flags.webhookSecret, { flag: "--webhook-secret", env: "COMPOSE_WEBHOOK_SECRET" }, env);
  return {
    host,
    port: flags.port === undefined ? DEFAULT_PORT : integerIn(flags.port, "--port", 0, 65535),
    maxConcurrentRenders: maxConcurrentRenders(flags.maxConcurrentRenders, env),
    maxQueue: flags.maxQueue === undefined ? DEFAULT_MAX_QUEUE : integerIn(flags.maxQueue, "--max-queue", 0, 10_000),
    projectsDir: projectsDir(flags.projects, cwd),
    outputsDir: outputsDir(flags.outputs, cwd),
    ...(flags.state === undefined ? {} : { statePath: statePath(flags.state, cwd) }),
    token,
    shutdownGraceMs: integerIn(grace, "--shutdown-grace", 0, 3600) * 1000,
    maxWorkersPerRender:
      flags.maxWorkersPerRender === undefined
        ? DEFAULT_MAX_WORKERS_PER_RENDER
        : integerIn(flags.maxWorkersPerRender, "--max-workers-per-render", 1, MAX_WORKERS),
    maxBatchRows: integerSetting(flags.maxBatchRows, { flag: "--max-batch-rows", env: "COMPOSE_MAX_BATCH_ROWS" }, env, BATCH_ROW_LIMITS),
    maxBatchBodyBytes:
      integerSetting(flags.maxBatchBodyMib, { flag: "--max-batch-body-mib", env: "COMPOSE_MAX_BATCH_BODY_MIB" }, env, BATCH_BODY_MIB_LIMITS) * 1024 * 1024,
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
    ...queueSettings(flags),
  };
}

/**
 * Checks a `--queue` value: a Redis URL, `redis://HOST:PORT` (or `rediss://` for TLS, with an
 * optional `user:password@` and `/db`). Returns it as given; a bad one is a one-line start-up error.
 */
export function queueUrl(text: string, flag: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "redis:" && url.protocol !== "rediss:") || url.hostname === "") {
    throw new ServerConfigError(`${flag} must be a Redis URL such as redis://127.0.0.1:6379 (got ${text})`);
  }
  if (url.pathname !== "" && url.pathname !== "/" && !/^\/\d+$/.test(url.pathname)) {
    throw new ServerConfigError(`${flag}: the path of a Redis URL is a database number, as in redis://HOST:PORT/1 (got ${text})`);
  }
  return text;
}

/** The URL without its password, for lines printed to a terminal or a log. */
export function redactedUrl(text: string): string {
  const url = new URL(text);
  if (url.password) url.password = "***";
  return url.toString().replace(/\/$/, "");
}

function queueSettings(flags: ServeFlags): Pick<ServerConfig, "queue" | "chunkSize"> {
  const queue = flags.queue === undefined ? undefined : queueUrl(flags.queue, "--queue");
  if (flags.chunkSize === undefined) return queue === undefined ? {} : { queue };
  if (queue === undefined) throw new ServerConfigError("--chunk-size needs --queue redis://HOST:PORT: chunks are rendered by compose worker processes");
  return { queue, chunkSize: integerIn(flags.chunkSize, "--chunk-size", 1, MAX_CHUNK_SIZE) };
}
