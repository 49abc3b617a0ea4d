/**
 * A real Docker engine for the container tests: the one that answers already, or else (as root)
 * one of the tests' own. That one is Debian's docker.io, installed when missing, with its data,
 * state and socket under directories of its own, no bridge network and no firewall rules, so it
 * disturbs no other engine; the tests stop it when they end. Its base image is a minimal Debian 12
 * made with debootstrap from Debian's archive, kept between runs.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, openSync, closeSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rename, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Everything the tests' own engine keeps between runs: its data (images, build cache) and the base image's tarball. */
const STATE_DIR = "/var/lib/compose-test-docker";
/** Its socket, pid file and containerd state. */
const RUN_DIR = "/run/compose-test-docker";
const SOCKET = `${RUN_DIR}/docker.sock`;
const PID_FILE = `${RUN_DIR}/dockerd.pid`;
const LOG_FILE = `${STATE_DIR}/dockerd.log`;
/** The tarball of the debootstrapped Debian 12, from which the base image is imported. */
const BASE_TARBALL = `${STATE_DIR}/debian-bookworm-minbase.tar`;
/** Debian's client and daemon (docker.io): the client that matches the engine. */
const DEBIAN_CLIENT = "/usr/bin/docker";
const DEBIAN_DAEMON = "/usr/sbin/dockerd";

/** The base image the tests build on: a minimal Debian 12, as `compose docker build --base-image` takes it. */
export const BASE_IMAGE = "compose-test/debian:bookworm";

export type EngineChoice =
  /** An engine answers the `docker` on PATH: the tests use it as it is. */
  | { kind: "existing" }
  /** None answers; the tests start their own (and install it first when needed). */
  | { kind: "own" }
  | { kind: "none"; reason: string };

export interface DockerResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(program: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 60_000): Promise<DockerResult> {
  return new Promise((resolve) => {
    execFile(program, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as NodeJS.ErrnoException).code === "number" ? Number((error as NodeJS.ErrnoException).code) : 127) : 0;
      resolve({ code, stdout, stderr: stderr || (error && code === 127 ? error.message : "") });
    });
  });
}

const ownEnv = (): NodeJS.ProcessEnv => ({ ...process.env, DOCKER_HOST: `unix://${SOCKET}` });

async function answers(program: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await run(program, ["version", "--format", "{{.Server.Version}}"], env, 10_000)).code === 0;
}

/** Which engine the tests can have, decided without installing or starting anything. */
export async function chooseEngine(): Promise<EngineChoice> {
  if (await answers("docker", process.env)) {
    const canMakeBase = process.getuid?.() === 0 || existsSync(BASE_TARBALL) || (await run("docker", ["image", "inspect", BASE_IMAGE])).code === 0;
    if (!canMakeBase)
      return { kind: "none", reason: `the Docker engine has no ${BASE_IMAGE}, and the tests do not run as root, so they cannot make it with debootstrap` };
    return { kind: "existing" };
  }
  if (process.getuid?.() !== 0) {
    return { kind: "none", reason: "no Docker engine answers, and the tests do not run as root, so they cannot start one" };
  }
  if (!existsSync(DEBIAN_DAEMON) && !existsSync("/usr/bin/apt-get")) {
    return { kind: "none", reason: `no Docker engine answers, there is no ${DEBIAN_DAEMON}, and no apt-get to install Debian's docker.io` };
  }
  return { kind: "own" };
}

export interface TestEngine {
  /** True when these tests started the daemon (and so may change its socket's group). */
  own: boolean;
  /** Environment for CLI runs on this engine: PATH starting with its client, and DOCKER_HOST for the tests' own. */
  env: Record<string, string>;
  /** Runs the engine's client. */
  docker(args: string[], timeoutMs?: number): Promise<DockerResult>;
  /** Lets members of `gid` use the engine's socket (only for the tests' own engine). */
  allowGroup(gid: number): Promise<void>;
  /** Stops the daemon when these tests started it, and removes the client's directory. */
  stop(): Promise<void>;
}

async function aptInstall(packages: string[]): Promise<void> {
  const install = () =>
    run("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...packages], { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, 600_000);
  let result = await install();
  if (result.code !== 0) {
    // A machine whose package lists were never fetched knows no docker.io yet.
    await run("apt-get", ["update", "-q"], process.env, 300_000);
    result = await install();
  }
  if (result.code !== 0) throw new Error(`apt-get install ${packages.join(" ")} failed: ${result.stderr.trim().split("\n").at(-1)}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts dockerd with the given storage driver; true once its socket answers, false when it exits first. */
async function startDaemon(storageDriver: string | undefined): Promise<boolean> {
  await mkdir(RUN_DIR, { recursive: true });
  await mkdir(STATE_DIR, { recursive: true });
  const log = openSync(LOG_FILE, "a");
  // Niced: the first build takes minutes of CPU that the other tests running meanwhile need more.
  const daemon = spawn(
    "nice",
    [
      "-n10",
      DEBIAN_DAEMON,
      `--data-root=${STATE_DIR}/engine`,
      `--exec-root=${RUN_DIR}/exec`,
      `--pidfile=${PID_FILE}`,
      `--host=unix://${SOCKET}`,
      // No docker0 bridge and no iptables rules: containers get only loopback, and builds use
      // the host's network (compose docker build asks for it).
      "--bridge=none",
      "--iptables=false",
      ...(storageDriver ? [`--storage-driver=${storageDriver}`] : []),
    ],
    { detached: true, stdio: ["ignore", log, log] },
  );
  closeSync(log);
  daemon.unref();
  let exited = false;
  daemon.once("exit", () => {
    exited = true;
  });
  await waitFor(async () => exited || (await answers(DEBIAN_CLIENT, ownEnv())), 60_000, `dockerd to answer on ${SOCKET} (its log: ${LOG_FILE})`);
  return !exited;
}

async function stopDaemon(): Promise<void> {
  if (!existsSync(PID_FILE)) return;
  const pid = Number(readFileSync(PID_FILE, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return;
  process.kill(pid, "SIGTERM");
  try {
    await waitFor(() => !isRunning(pid), 30_000, `dockerd (pid ${pid}) to stop`);
  } catch {
    process.kill(pid, "SIGKILL");
  }
}

/** Starts (or finds) the engine the choice names, with a directory holding its client for PATH. */
export async function startEngine(choice: EngineChoice): Promise<TestEngine> {
  if (choice.kind === "none") throw new Error(choice.reason);
  const clientDir = await mkdtemp(join(tmpdir(), "compose-docker-client-"));
  // On every user's PATH, a render as another user among them.
  await chmod(clientDir, 0o755);
  const own = choice.kind === "own";
  if (own) {
    if (!existsSync(DEBIAN_DAEMON)) await aptInstall(["docker.io"]);
    // A daemon an interrupted run left is the tests' own too: it is used, and stopped at the end.
    if (!(await answers(DEBIAN_CLIENT, ownEnv()))) {
      if (!(await startDaemon(undefined)) && !(await startDaemon("vfs"))) {
        throw new Error(`dockerd exited before answering, with overlay2 and with vfs: see ${LOG_FILE}`);
      }
    }
  }
  const client = own ? DEBIAN_CLIENT : (await run("sh", ["-c", "command -v docker"])).stdout.trim();
  await symlink(client, join(clientDir, "docker"));
  const env: Record<string, string> = { PATH: `${clientDir}:${process.env.PATH}`, ...(own ? { DOCKER_HOST: `unix://${SOCKET}` } : {}) };
  const clientEnv = { ...process.env, ...env };
  return {
    own,
    env,
    docker: (args, timeoutMs) => run(client, args, clientEnv, timeoutMs),
    async allowGroup(gid) {
      if (!own) throw new Error("only the tests' own engine's socket may change group");
      await run("chgrp", [String(gid), SOCKET]);
    },
    async stop() {
      if (own) {
        // What a rebuild replaced, so that the engine's data stays bounded from run to run.
        await run(client, ["image", "prune", "--force"], clientEnv);
        await run(client, ["builder", "prune", "--force", "--keep-storage=4gb"], clientEnv, 120_000);
        await stopDaemon();
      }
      await rm(clientDir, { recursive: true, force: true });
    },
  };
}

/** Imports the base image when the engine lacks it, from the tarball made (once) with debootstrap. */
export async function ensureBaseImage(engine: TestEngine): Promise<void> {
  if ((await engine.docker(["image", "inspect", BASE_IMAGE])).code === 0) return;
  if (!existsSync(BASE_TARBALL)) {
    if (!existsSync("/usr/sbin/debootstrap")) await aptInstall(["debootstrap"]);
    await mkdir(STATE_DIR, { recursive: true });
    const work = await mkdtemp(join(STATE_DIR, "debootstrap-"));
    try {
      const rootfs = join(work, "rootfs");
      const made = await run("debootstrap", ["--variant=minbase", "bookworm", rootfs, "http://deb.debian.org/debian"], process.env, 900_000);
      if (made.code !== 0) throw new Error(`debootstrap failed: ${made.stderr.trim().split("\n").at(-1)}`);
      const packed = await run("tar", ["-C", rootfs, "-cf", join(work, "rootfs.tar"), "."], process.env, 300_000);
      if (packed.code !== 0) throw new Error(`tar of the debootstrapped Debian failed: ${packed.stderr.trim()}`);
      await rename(join(work, "rootfs.tar"), BASE_TARBALL);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  const imported = await engine.docker(["import", BASE_TARBALL, BASE_IMAGE], 300_000);
  if (imported.code !== 0) throw new Error(`docker import of ${BASE_TARBALL} failed: ${imported.stderr.trim()}`);
}
