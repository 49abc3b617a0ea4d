import { statSync } from "node:fs";
import { resolve } from "node:path";

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
  /** When set, every endpoint but /health requires `Authorization: Bearer <token>`. */
  token?: string;
  /** How long SIGTERM lets running renders finish before cancelling them. */
  shutdownGraceMs: number;
}

/** `compose serve` flags as commander hands them over: text, as typed. */
export interface ServeFlags {
  host?: string;
  port?: string;
  maxConcurrentRenders?: string;
  maxQueue?: string;
  projects?: string;
  outputs?: string;
  token?: string;
  shutdownGrace?: string;
}

/** A start-up setting the server refuses; the message is the one line the user sees. */
export class ServerConfigError extends Error {
  override name = "ServerConfigError";
}

/** SPEC.md's cap on an execution input; a render request is one. */
export const MAX_BODY_BYTES = 256 * 1024;

export const CONCURRENCY_LIMITS = { min: 1, max: 10, default: 2 } as const;
export const DEFAULT_PORT = 9847;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_MAX_QUEUE = 100;
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 30;

function integerIn(text: string, source: string, min: number, max: number): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) throw new ServerConfigError(`${source} must be an integer from ${min} to ${max} (got ${text})`);
  return value;
}

function maxConcurrentRenders(flag: string | undefined, env: NodeJS.ProcessEnv): number {
  const { min, max } = CONCURRENCY_LIMITS;
  // The flag wins over the environment, even when the environment holds nonsense.
  if (flag !== undefined) return integerIn(flag, "--max-concurrent-renders", min, max);
  const fromEnv = env.PRODUCER_MAX_CONCURRENT_RENDERS;
  if (fromEnv !== undefined && fromEnv !== "") return integerIn(fromEnv, "PRODUCER_MAX_CONCURRENT_RENDERS", min, max);
  return CONCURRENCY_LIMITS.default;
}

function projectsDir(flag: string | undefined, cwd: string): string {
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

function tokenFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  // An empty COMPOSE_TOKEN is an unset one; an empty --token is a mistake.
  const value = flag ?? (env.COMPOSE_TOKEN || undefined);
  if (value !== undefined && !/^\S+$/.test(value)) {
    throw new ServerConfigError(`${flag !== undefined ? "--token" : "COMPOSE_TOKEN"} must be a non-empty token without spaces`);
  }
  return value;
}

/** Validates the flags and environment of `compose serve`, reporting the first problem. */
export function serverConfigFromFlags(flags: ServeFlags, env: NodeJS.ProcessEnv, cwd: string): ServerConfig {
  const host = flags.host ?? DEFAULT_HOST;
  if (host.trim() === "") throw new ServerConfigError("--host must be an address or host name");
  const grace = flags.shutdownGrace ?? String(DEFAULT_SHUTDOWN_GRACE_SECONDS);
  const token = tokenFrom(flags.token, env);
  return {
    host,
    port: flags.port === undefined ? DEFAULT_PORT : integerIn(flags.port, "--port", 0, 65535),
    maxConcurrentRenders: maxConcurrentRenders(flags.maxConcurrentRenders, env),
    maxQueue: flags.maxQueue === undefined ? DEFAULT_MAX_QUEUE : integerIn(flags.maxQueue, "--max-queue", 0, 10_000),
    projectsDir: projectsDir(flags.projects, cwd),
    outputsDir: resolve(cwd, flags.outputs ?? "renders"),
    token,
    shutdownGraceMs: integerIn(grace, "--shutdown-grace", 0, 3600) * 1000,
  };
}
