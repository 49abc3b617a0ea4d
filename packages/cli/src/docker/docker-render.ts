import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { detectPackageManager } from "../doctor/install-command.js";
import type { RenderFlags } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";
import { engineErrorLine, probeDockerEngine } from "./engine.js";
import { inspectImage, listImages, pinnedImageOf, repositoryRoot } from "./image.js";
import { buildImage, defaultCaCertificates, unreachableSourcesHint } from "./image-build.js";
import { dockerRunArgs, outputMountTarget } from "./run-command.js";
import { runDocker } from "./run-docker.js";

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

/** docker run's own failures (it could not create or start the container), as opposed to the inner render's exit codes. */
const DOCKER_RUN_FAILURES = new Set([125, 126, 127]);

function fail(message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return 1;
}

/**
 * The image to render in: --image as given (it must exist: an image is built on purpose, with
 * `compose docker build`), else the one built from the Dockerfile's pins for this version, built
 * here when the engine lacks it. The tag, or the exit code after one line saying why there is none.
 */
async function chooseImage(requested: string | undefined): Promise<{ tag: string } | { code: number }> {
  if (requested !== undefined) {
    if (await inspectImage(requested)) return { tag: requested };
    return { code: fail(`docker: the engine has no image ${requested}: build one with compose docker build (it prints the tag), or leave out --image`) };
  }
  const pinned = pinnedImageOf(await listImages());
  if (pinned !== undefined) return { tag: pinned.tag };
  const root = repositoryRoot();
  process.stderr.write(`docker: building the image with the pinned versions from ${root} (once per version of compose; this takes a few minutes)\n`);
  const plan = { root, archive: "snapshot", caCertificates: defaultCaCertificates() } as const;
  const build = await buildImage(plan);
  if (build.built) return { tag: build.image.tag };
  if (build.failure === undefined) return { code: build.code };
  return {
    code: fail(
      `docker: building the image with the pinned versions failed: ${build.failure}; ${unreachableSourcesHint(plan)}, then render with --image and the tag it prints`,
    ),
  };
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
  const plan = {
    compositionFile: request.compositionFile,
    output: request.output,
    variablesFile: flags.variablesFile === undefined ? undefined : resolve(flags.variablesFile),
    cwd: process.cwd(),
    flags,
    user: uid === undefined || gid === undefined ? undefined : { uid, gid },
    tty: Boolean(process.stdout.isTTY && process.stderr.isTTY),
    env,
  };
  // A usage error comes before Docker is looked for.
  outputMountTarget(request.output);

  const engine = await probeDockerEngine();
  if (engine.state !== "ready") return fail(engineErrorLine(engine, detectPackageManager()));
  const image = await chooseImage(flags.image);
  if ("code" in image) return image.code;
  const args = dockerRunArgs({ ...plan, image: image.tag });

  // The mount source must exist; created here, it belongs to the user, as a local render's would.
  const outputDir = dirname(request.output);
  try {
    await mkdir(outputDir, { recursive: true });
  } catch (error) {
    return fail(`--output ${request.output}: cannot create ${outputDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const { code } = await runDocker(args, { stdout: "inherit", stderr: "inherit" });
  if (DOCKER_RUN_FAILURES.has(code)) {
    return fail(`docker: docker run could not run the render in ${image.tag} (exit code ${code}); docker's message above says why`);
  }
  return code;
}
