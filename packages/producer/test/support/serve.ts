import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROJECT_FILES } from "./compositions.js";

export const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "../../../cli/bin/compose.js");

/** Every process a server starts (browsers, ffmpeg) inherits this variable, so leftovers can be found. */
const TAG = "COMPOSE_PRODUCER_TEST_TAG";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ServeProcess {
  /** The base URL the server printed, e.g. http://127.0.0.1:40123. */
  url: string;
  child: ChildProcess;
  tag: string;
  exited: Promise<Exit>;
  output(): { stdout: string; stderr: string };
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** The environment without this machine's COMPOSE_* and PRODUCER_* settings, plus `extra`. */
export function cleanEnv(extra: Record<string, string>, tag: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(COMPOSE_|PRODUCER_)/.test(key)));
  return { ...env, ...extra, [TAG]: tag };
}

/** Runs `compose serve <args>`; resolves when it prints its address, or rejects with its exit. */
export function spawnServe(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): { ready: Promise<ServeProcess>; exited: Promise<Exit> } {
  const tag = randomUUID();
  const child = spawn(process.execPath, [CLI, "serve", ...args], {
    cwd: options.cwd ?? tmpdir(),
    env: cleanEnv(options.env ?? {}, tag),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolveExit) => child.once("close", (code, signal) => resolveExit({ code, signal, stdout, stderr })));
  const ready = new Promise<ServeProcess>((resolveReady, rejectReady) => {
    const check = () => {
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (!url) return;
      child.stdout!.off("data", check);
      resolveReady({
        url,
        child,
        tag,
        exited,
        output: () => ({ stdout, stderr }),
        stop(signal = "SIGTERM") {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on("data", check);
    void exited.then((exit) => rejectReady(new Error(`compose serve exited (${exit.code}) before listening: ${exit.stderr}`)));
  });
  // A caller that expects the start to fail reads only `exited`.
  ready.catch(() => undefined);
  return { ready, exited };
}

export interface TestServer extends ServeProcess {
  projectsDir: string;
  outputsDir: string;
  /** Stops the server (if still running), checks nothing it started is left, removes its directories. */
  close(): Promise<string[]>;
}

/** `compose serve` on 127.0.0.1 and a free port, over a fresh projects directory and outputs directory. */
export async function startServer(args: string[] = [], env: Record<string, string> = {}, files = PROJECT_FILES): Promise<TestServer> {
  const root = await mkdtemp(join(tmpdir(), "compose-producer-"));
  const projectsDir = join(root, "projects");
  const outputsDir = join(root, "outputs");
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(projectsDir, name)), { recursive: true });
    await writeFile(join(projectsDir, name), content);
  }
  const serve = await spawnServe(["--port", "0", "--projects", projectsDir, "--outputs", outputsDir, "--shutdown-grace", "0", ...args], { env }).ready.catch(
    async (error: unknown) => {
      await rm(root, { recursive: true, force: true });
      throw error;
    },
  );
  return {
    ...serve,
    projectsDir,
    outputsDir,
    async close() {
      if (serve.child.exitCode === null && serve.child.signalCode === null) await serve.stop();
      const left = await leftoverProcesses(serve.tag);
      await rm(root, { recursive: true, force: true });
      return left;
    },
  };
}

async function taggedProcesses(tag: string): Promise<number[]> {
  const needle = `${TAG}=${tag}\0`;
  const found: number[] = [];
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
    const state = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    // A zombie has already exited; it only waits for its parent to notice.
    if (environ.includes(needle) && !/\) Z /.test(state)) found.push(Number(pid));
  }
  return found;
}

/** Command lines of processes the server left running after `graceMs`; they are killed so they don't leak. */
export async function leftoverProcesses(tag: string, graceMs = 3000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  let left = await taggedProcesses(tag);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    left = await taggedProcesses(tag);
  }
  const lines = await Promise.all(left.map(async (pid) => (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).replaceAll("\0", " ")));
  for (const pid of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  return lines;
}

/** What is in an outputs directory besides the server's own state (`.compose-server/`): outputs, and any staging left. */
export async function outputEntries(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name !== ".compose-server");
}
