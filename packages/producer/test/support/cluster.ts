/**
 * A real cluster for the distributed-queue tests: a `redis-server` (the Debian package) on
 * 127.0.0.1 and an ephemeral port, with no persistence, in a temporary directory; `compose
 * worker` processes; and `compose serve --queue` processes.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { CLI, cleanEnv, leftoverProcesses, spawnServe, type Exit, type ServeProcess } from "./serve.js";

/** The redis-server binary on PATH (or Debian's place for it), or undefined when it is not installed. */
export function findRedisServer(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/local/bin"];
  return dirs.map((dir) => join(dir, "redis-server")).find((path) => existsSync(path));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts redis-server on a free port, or on `requested` (a restart of one that stopped: empty, since
 * nothing is persisted), and resolves once it accepts connections. With `appendOnlyDir`, it keeps
 * an append-only file there, so a restart on the same port and directory keeps its data; the
 * directory is the caller's to remove.
 */
export async function startRedis(binary: string, requested?: number, appendOnlyDir?: string): Promise<RedisServer> {
  if (appendOnlyDir) await mkdir(appendOnlyDir, { recursive: true });
  const dir = appendOnlyDir ?? (await mkdtemp(join(tmpdir(), "compose-redis-")));
  const persistence = appendOnlyDir ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
  for (let attempt = 1; ; attempt++) {
    const port = requested ?? (await freePort());
    const child = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence, "--dir", dir, "--daemonize", "no"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const ready = await new Promise<boolean>((resolve) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (/Ready to accept connections/i.test(output)) resolve(true);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("close", () => resolve(false));
    });
    child.stdout!.resume();
    child.stderr!.resume();
    if (ready) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop() {
          child.kill("SIGTERM");
          await exited;
          if (!appendOnlyDir) await rm(dir, { recursive: true, force: true });
        },
      };
    }
    // The port was taken between finding it and binding it: try another.
    if (attempt >= 5 || requested !== undefined) throw new Error(`redis-server did not start: ${output}`);
  }
}

export interface LogLine {
  /** Milliseconds since the epoch, from the line's ISO time. */
  at: number;
  verb: "started" | "finished" | "failed" | "handed back";
  id: string;
  text: string;
}

export interface WorkerProcess {
  name: string;
  child: ChildProcess;
  tag: string;
  exited: Promise<Exit>;
  /** Task lines so far: `<ISO time> started|finished|failed|handed back <task id> ...`. */
  lines(): LogLine[];
  output(): string;
  /** Resolves with the first log line matching `test` (already printed or still to come). */
  waitFor(test: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGKILL to the worker, then to everything it started (its browsers, ffmpeg): a machine that dies. */
  killHard(): Promise<Exit>;
  /** SIGTERM and wait (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<Exit>;
}

const LINE = /^compose worker: (\S+) (started|finished|failed|handed back) ([^\s:]+)(.*)$/;

/** Runs `compose worker` in its own process group; resolves once it is ready. */
export async function startWorker(name: string, args: string[], env: Record<string, string> = {}): Promise<WorkerProcess> {
  const tag = randomUUID();
  const child = spawn(process.execPath, [CLI, "worker", ...args], {
    cwd: tmpdir(),
    env: cleanEnv(env, tag),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    waiters.forEach((wake) => wake());
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) =>
    child.once("close", (code, signal) => {
      waiters.forEach((wake) => wake());
      resolve({ code, signal, stdout, stderr });
    }),
  );
  const lines = (): LogLine[] =>
    stdout.split("\n").flatMap((text) => {
      const match = LINE.exec(text);
      return match ? [{ at: Date.parse(match[1]!), verb: match[2] as LogLine["verb"], id: match[3]!, text }] : [];
    });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const worker: WorkerProcess = {
    name,
    child,
    tag,
    exited,
    lines,
    output: () => `${stdout}${stderr}`,
    waitFor(test, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(() => reject(new Error(`${name}: no such log line within ${timeoutMs} ms:\n${stdout}${stderr}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        const check = () => {
          const found = lines().find(test);
          if (found) done(() => resolve(found));
          else if (!alive()) done(() => reject(new Error(`${name} exited:\n${stdout}${stderr}`)));
        };
        waiters.add(check);
        check();
      });
    },
    async killHard() {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      const exit = await exited;
      // Browsers run in process groups of their own: everything the worker started dies with it.
      await leftoverProcesses(tag, 0);
      return exit;
    },
    async stop(timeoutMs = 20_000) {
      if (!alive()) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => void worker.killHard(), timeoutMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
  await new Promise<void>((resolve, reject) => {
    // A worker that never gets ready is not left behind.
    const timer = setTimeout(() => void worker.killHard(), 30_000);
    const check = () => {
      if (/compose worker: ready/.test(stdout)) {
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      } else if (!alive()) {
        clearTimeout(timer);
        waiters.delete(check);
        reject(new Error(`${name} exited before it was ready: ${stdout}${stderr}`));
      }
    };
    waiters.add(check);
    check();
  });
  return worker;
}

/** Processes a worker started that are still running (killed, and their command lines returned). */
export function leftoversOf(worker: WorkerProcess): Promise<string[]> {
  return leftoverProcesses(worker.tag);
}

/** The largest number of [start, end) intervals that overlap at any instant (an end before a start at the same time). */
export function maxOverlap(intervals: Array<{ start: number; end: number }>): number {
  const points = intervals.flatMap(({ start, end }) => [
    { at: start, delta: 1 },
    { at: end, delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let most = 0;
  for (const point of points) {
    now += point.delta;
    most = Math.max(most, now);
  }
  return most;
}

/** The raw RGBA pixels of every frame of a video or image sequence, decoded by ffmpeg, one buffer per frame. */
export function decodeFrames(input: string[], width: number, height: number): Buffer[] {
  const result = spawnSync("ffmpeg", ["-v", "error", ...input, "-f", "rawvideo", "-pix_fmt", "rgba", "-"], { maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`ffmpeg could not decode ${input.join(" ")}: ${result.stderr.toString()}`);
  const size = width * height * 4;
  const frames: Buffer[] = [];
  for (let offset = 0; offset < result.stdout.length; offset += size) frames.push(result.stdout.subarray(offset, offset + size));
  return frames;
}

/** The MD5 of a file's audio stream packets, as stored (not decoded): equal only for identical audio. */
export function audioStreamMd5(file: string): string {
  const result = spawnSync("ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-c", "copy", "-f", "md5", "-"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`ffmpeg could not read the audio of ${file}: ${result.stderr}`);
  return result.stdout.trim();
}

export interface SmallCluster {
  /** Replaced by a test that restarts Redis, so that close() stops the one running. */
  redis: RedisServer;
  root: string;
  projectsDir: string;
  outputsDir: string;
  server: ServeProcess;
  worker: WorkerProcess;
  /** Stops the server, the worker and Redis, removes the directories; returns the processes left running. */
  close(): Promise<string[]>;
}

/**
 * Redis, one `compose serve --queue` (with `serveArgs`) and one worker, over a fresh projects
 * directory holding `files` and a fresh outputs directory, in a temporary `root` named after `name`.
 */
export async function startSmallCluster(redisServer: string, name: string, files: Record<string, string>, serveArgs: string[]): Promise<SmallCluster> {
  const redis = await startRedis(redisServer);
  const root = await mkdtemp(join(tmpdir(), `compose-${name}-`));
  const projectsDir = join(root, "projects");
  const outputsDir = join(root, "outputs");
  for (const [file, html] of Object.entries(files)) {
    await mkdir(dirname(join(projectsDir, file)), { recursive: true });
    await writeFile(join(projectsDir, file), html);
  }
  const dirs = ["--projects", projectsDir, "--outputs", outputsDir, "--shutdown-grace", "0"];
  const [server, worker] = await Promise.allSettled([
    spawnServe(["--port", "0", "--queue", redis.url, ...serveArgs, ...dirs]).ready,
    startWorker("worker", ["--queue", redis.url, "--stall-timeout", "3", ...dirs]),
  ]);
  const close = async () => {
    const running = [server, worker].flatMap((started) => (started.status === "fulfilled" ? [started.value] : []));
    await Promise.all(running.map((each) => each.stop()));
    const left = (await Promise.all(running.map((each) => leftoverProcesses(each.tag)))).flat();
    // The Redis of now: a test may have restarted it.
    await (cluster?.redis ?? redis).stop();
    await rm(root, { recursive: true, force: true });
    return left;
  };
  if (server.status === "rejected" || worker.status === "rejected") {
    await close();
    throw server.status === "rejected" ? server.reason : (worker as PromiseRejectedResult).reason;
  }
  const cluster: SmallCluster = { redis, root, projectsDir, outputsDir, server: server.value, worker: worker.value, close };
  return cluster;
}
