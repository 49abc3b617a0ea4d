import { spawn, type StdioOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { constants } from "node:os";
import { detectPackageManager } from "../doctor/install-command.js";
import type { RenderFlags } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";
import { engineErrorLine, probeDockerEngine } from "./engine.js";
import { dockerBuildArgs, imageExists, imageTag, repositoryRoot } from "./image.js";
import { dockerRunArgs } from "./run-command.js";

export interface ContainerRenderRequest {
  /** The render flags as commander parsed them (already validated). */
  flags: RenderFlags;
  /** Absolute path of the composition's HTML file. */
  compositionFile: string;
  /** Absolute path of the output. */
  output: string;
}

/** Environment settings the inner render honours too; host paths (COMPOSE_BROWSER, COMPOSE_FFMPEG) are not among them. */
const PASSED_ENVIRONMENT = ["COMPOSE_READY_TIMEOUT_MS", "COMPOSE_CAPTURE_MODE", "NO_COLOR"];

/** Exit code of a render ended by Ctrl-C, as shells report it (a local render's too). */
const EXIT_INTERRUPTED = 130;

/** docker run's own failures (it could not create or start the container), as opposed to the inner render's exit codes. */
const DOCKER_RUN_FAILURES = new Set([125, 126, 127]);

function fail(message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return 1;
}

interface DockerExit {
  /** Exit code; 128 + n when a signal ended the client. */
  code: number;
  /** True when this process forwarded Ctrl-C (or a termination signal) to it. */
  interrupted: boolean;
}

/**
 * Runs docker to completion. The client runs in its own process group and this process forwards
 * Ctrl-C and termination to it exactly once per signal: docker passes them on to the container,
 * whose render stops as a local one does.
 */
function runDocker(args: string[], stdio: StdioOptions): Promise<DockerExit> {
  return new Promise((resolvePromise) => {
    let interrupted = false;
    const child = spawn("docker", args, { stdio, detached: process.platform !== "win32" });
    const forward = (signal: NodeJS.Signals) => () => {
      interrupted = true;
      child.kill(signal);
    };
    const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) => [signal, forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const done = (code: number) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolvePromise({ code, interrupted });
    };
    child.once("error", (error) => {
      process.stderr.write(`error: docker: could not start docker (${(error as NodeJS.ErrnoException).code ?? error.message})\n`);
      done(1);
    });
    child.once("close", (code, signal) => {
      done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}

/** Builds the image from the repository root when the engine lacks it. 0 when the image is there, else the exit code. */
async function ensureImage(tag: string): Promise<number> {
  if (await imageExists(tag)) return 0;
  const root = repositoryRoot();
  if (!existsSync(join(root, "Dockerfile"))) {
    return fail(`docker: the image ${tag} is missing and there is no Dockerfile at ${root} to build it from: build it from the compose repository with \`docker build -t ${tag} .\``);
  }
  process.stderr.write(`docker: building the image ${tag} from ${root} (once per version; this takes a few minutes)\n`);
  // Build progress goes to stderr, so stdout keeps only what the render prints.
  const build = await runDocker(dockerBuildArgs(tag, root), ["ignore", 2, 2]);
  if (build.code === 0) return 0;
  if (build.interrupted) return EXIT_INTERRUPTED;
  return fail(`docker: building the image ${tag} failed (docker build exited with code ${build.code}); its output above says why`);
}

/**
 * `compose render --docker`: the same render, run by the CLI inside the compose-render image.
 * Returns the exit code: the inner render's, or 1 when Docker cannot be used (after one line).
 * Usage errors (exit 2) are thrown before anything is started.
 */
export async function renderInContainer(request: ContainerRenderRequest): Promise<number> {
  const { flags } = request;
  if (flags.browserGpu === true) {
    throw new UsageError("--browser-gpu cannot be combined with --docker: container mode always renders without the host GPU");
  }
  const env: Record<string, string> = {};
  for (const name of PASSED_ENVIRONMENT) {
    const value = process.env[name];
    if (value !== undefined && value !== "") env[name] = value;
  }
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  const tag = imageTag();
  const args = dockerRunArgs({
    image: tag,
    compositionFile: request.compositionFile,
    output: request.output,
    variablesFile: flags.variablesFile === undefined ? undefined : resolve(flags.variablesFile),
    cwd: process.cwd(),
    flags,
    user: uid === undefined || gid === undefined ? undefined : { uid, gid },
    tty: Boolean(process.stdout.isTTY && process.stderr.isTTY),
    env,
  });

  const engine = await probeDockerEngine();
  if (engine.state !== "ready") return fail(engineErrorLine(engine, detectPackageManager()));
  const imageCode = await ensureImage(tag);
  if (imageCode !== 0) return imageCode;

  // The mount source must exist; created here, it belongs to the user, as a local render's would.
  const outputDir = dirname(request.output);
  try {
    await mkdir(outputDir, { recursive: true });
  } catch (error) {
    return fail(`--output ${request.output}: cannot create ${outputDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const { code } = await runDocker(args, ["ignore", "inherit", "inherit"]);
  if (DOCKER_RUN_FAILURES.has(code)) {
    return fail(`docker: docker run could not run the render in ${tag} (exit code ${code}); docker's message above says why`);
  }
  return code;
}
