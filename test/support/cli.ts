import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./project.js";

export const CLI_BIN = join(REPO_ROOT, "packages/cli/bin/compose.js");

/** Marks every process a CLI run starts (browsers, ffmpeg): they inherit the environment. */
const TAG_VARIABLE = "COMPOSE_TEST_RUN_TAG";

export interface CliResult {
  /** Exit code, or null when the process was ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
  /** True when the run exceeded its timeout and was killed by the test. */
  timedOut: boolean;
  /** CPU time (user + system) of the process and its children, with `measureCpu`. */
  cpuMs?: number;
}

export interface CliOptions {
  cwd?: string;
  /** Added to the environment; the caller's own COMPOSE_* variables are not inherited. */
  env?: Record<string, string>;
  /** Kill the run (and everything it started) after this long; default 60 s. */
  timeoutMs?: number;
  /**
   * Start the CLI as the leader of its own process group, like a shell starts a job: then
   * `process.kill(-run.pid, "SIGINT")` is what Ctrl-C at a terminal does.
   */
  processGroup?: boolean;
  /**
   * Measure the CPU time the run used (`cpuMs`), which unlike wall time hardly depends on how
   * busy the machine is. The process then runs under `bash -c`, which reports it with `times`.
   */
  measureCpu?: boolean;
  /** Run as this user and group (the tests must run as root to give another). */
  user?: { uid: number; gid: number };
}

export interface CliRun {
  child: ChildProcess;
  pid: number;
  /** The value of COMPOSE_TEST_RUN_TAG in the environment of this run and its descendants. */
  tag: string;
  result: Promise<CliResult>;
  /** Resolves once stdout matches `pattern`; rejects if the process exits first. */
  waitForStdout(pattern: RegExp): Promise<string>;
}

/** The environment of a CLI run: this one's but for COMPOSE_* variables, then `extra`, then the run's tag. */
export function childEnv(extra: Record<string, string> | undefined, tag: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("COMPOSE_")) env[key] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra, [TAG_VARIABLE]: tag };
}

/** Starts `compose <args>` as a subprocess with a piped (non-TTY) stdout and stderr. */
export function startCli(args: string[], options: CliOptions = {}): CliRun {
  return startNode([CLI_BIN, ...args], options);
}

/** Starts `node <argv>` the same way (for library calls in a plain Node process). */
export function startNode(argv: string[], options: CliOptions = {}): CliRun {
  const tag = randomUUID();
  const started = Date.now();
  const [command, commandArgs] = options.measureCpu
    ? ["bash", ["-c", '"$@"; code=$?; times >&3; exit $code', "bash", process.execPath, ...argv]]
    : [process.execPath, argv];
  const child = spawn(command, commandArgs, {
    cwd: options.cwd ?? REPO_ROOT,
    env: childEnv(options.env, tag),
    stdio: ["ignore", "pipe", "pipe", ...(options.measureCpu ? (["pipe"] as const) : [])],
    detached: options.processGroup ?? false,
    ...options.user,
  });
  let times = "";
  (child.stdio[3] as NodeJS.ReadableStream | undefined)?.setEncoding("utf8").on("data", (chunk: string) => {
    times += chunk;
  });
  let stdout = "";
  let stderr = "";
  let exited = false;
  const watchers: Array<() => void> = [];
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const watcher of [...watchers]) watcher();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
    killTagged(tag);
  }, options.timeoutMs ?? 60_000);
  const result = new Promise<CliResult>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      exited = true;
      clearTimeout(timer);
      for (const watcher of [...watchers]) watcher();
      if (timedOut) killTagged(tag);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut, cpuMs: options.measureCpu ? childrenCpuMs(times) : undefined });
    });
  });
  return {
    child,
    pid: child.pid!,
    tag,
    result,
    waitForStdout(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout);
          if (match) {
            watchers.splice(watchers.indexOf(check), 1);
            resolve(match[0]);
          } else if (exited) {
            watchers.splice(watchers.indexOf(check), 1);
            reject(new Error(`the CLI exited before printing ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
          }
        };
        watchers.push(check);
        check();
      });
    },
  };
}

/** bash's `times` prints the shell's user and system time, then its children's: "0m0.512s 0m0.083s". */
function childrenCpuMs(times: string): number | undefined {
  const children = times.trim().split("\n")[1];
  const parts = children?.match(/(\d+)m([\d.]+)s/g);
  if (!parts || parts.length !== 2) return undefined;
  return parts.reduce((sum, part) => {
    const [, minutes, seconds] = /(\d+)m([\d.]+)s/.exec(part)!;
    return sum + (Number(minutes) * 60 + Number(seconds)) * 1000;
  }, 0);
}

/** Runs `compose <args>` to completion. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).result;
}

/** `compose render <args>`. */
export function render(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(["render", ...args], options);
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** argv joined with spaces. */
  cmdline: string;
}

function readProc(pid: string): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces; ppid is the 2nd field after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = fields[0];
    if (state === "Z") return undefined; // a zombie has already exited
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return { pid: Number(pid), ppid: Number(fields[1]), cmdline };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Live processes whose environment carries the run's tag: whatever the CLI started and left. */
export function taggedProcesses(tag: string): ProcessInfo[] {
  const needle = `${TAG_VARIABLE}=${tag}\0`;
  const found: ProcessInfo[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, "utf8");
    } catch {
      continue;
    }
    if (!environ.includes(needle)) continue;
    const info = readProc(pid);
    if (info) found.push(info);
  }
  return found;
}

/** Live processes below `pid` in the process tree (children, grandchildren...). */
export function descendantsOf(pid: number): ProcessInfo[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(readProc)
    .filter((info): info is ProcessInfo => info !== undefined);
  const result: ProcessInfo[] = [];
  const parents = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const info of all) {
      if (parents.has(info.ppid) && !parents.has(info.pid)) {
        parents.add(info.pid);
        result.push(info);
        grew = true;
      }
    }
  }
  return result;
}

export function killTagged(tag: string): void {
  for (const info of taggedProcesses(tag)) {
    try {
      process.kill(info.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * The processes a finished run left behind, after giving them `graceMs` to go (a killed
 * browser's helpers take a moment to notice). Whatever is still there is killed, so one failing
 * test does not leak processes into the others, and returned for the assertion.
 */
export async function leftoverProcesses(tag: string, graceMs = 3000): Promise<ProcessInfo[]> {
  const deadline = Date.now() + graceMs;
  let left = taggedProcesses(tag);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = taggedProcesses(tag);
  }
  if (left.length > 0) killTagged(tag);
  return left;
}

/** Lines of a text, without the empty one after a final newline. */
export function lines(text: string): string[] {
  return text.split("\n").filter((line, i, all) => !(line === "" && i === all.length - 1));
}

/** Runs `tasks` with at most `limit` at a time; results in task order. */
export async function limited<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/**
 * Time limit for a beforeAll that renders a file's compositions: generous, because a machine
 * shared with other work can be several times slower than an idle one.
 */
export const RENDER_HOOK_TIMEOUT_MS = 300_000;

/**
 * The memory the browsers below `pid` hold, as the renderer's limit counts it: each process's
 * private pages and the shared memory it maps (RssAnon + RssShmem), their programs left out.
 */
export function browserMemory(pid: number): number {
  let total = 0;
  for (const info of descendantsOf(pid)) {
    if (!info.cmdline.includes("chromium")) continue;
    try {
      const status = readFileSync(`/proc/${info.pid}/status`, "utf8");
      const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
      total += (kib("RssAnon") + kib("RssShmem")) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
