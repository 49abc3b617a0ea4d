import { existsSync } from "node:fs";
import { join } from "node:path";
import { firstLine, runTool } from "../doctor/run-tool.js";
import type { LocalImage } from "./image.js";
import { describeVersions, IMAGE_NAME, imageLabels, imageTagOf, parseVersionsFile } from "./image-versions.js";
import { runDocker } from "./run-docker.js";
import { EXIT_INTERRUPTED } from "../render/interruptible.js";

/** Where the build installs Debian's packages from: the Dockerfile's dated snapshot, or the current archive. */
export const ARCHIVES = ["snapshot", "current"] as const;
export type Archive = (typeof ARCHIVES)[number];

/** The certificate authorities a Debian host trusts: given to the build for its downloads, when present. */
export const HOST_CA_CERTIFICATES = "/etc/ssl/certs/ca-certificates.crt";

export interface ImageBuildPlan {
  /** The repository root: the Dockerfile and the build context. */
  root: string;
  /** Any Debian 12 image; default the Dockerfile's pinned one. */
  baseImage?: string | undefined;
  archive: Archive;
  /** A mirror of the archive chosen: of snapshot.debian.org, or of deb.debian.org. */
  debianMirror?: string | undefined;
  /** The npm registry Node.js, npm and the lock file's packages come from. */
  npmRegistry?: string | undefined;
  /** A PEM file of certificate authorities the build's downloads trust (a build secret, not kept in the image). */
  caCertificates?: string | undefined;
}

/** Only the Dockerfile's own pins (its base image and snapshot) make the image the default one. */
export function isPinnedBuild(plan: Pick<ImageBuildPlan, "baseImage" | "archive">): boolean {
  return plan.baseImage === undefined && plan.archive === "snapshot";
}

/**
 * `docker build` of the unlabelled image, tagged `tag`. Its RUN steps use the host's network, so
 * they reach what the host reaches (through its DNS and routes) whatever the engine's own
 * networks are.
 */
export function dockerBuildArgs(plan: ImageBuildPlan, tag: string): string[] {
  const buildArgs: string[] = [];
  if (plan.baseImage !== undefined) buildArgs.push(`BASE_IMAGE=${plan.baseImage}`);
  if (plan.archive === "current") buildArgs.push("DEBIAN_SNAPSHOT=");
  if (plan.debianMirror !== undefined) buildArgs.push(`${plan.archive === "current" ? "DEBIAN_MIRROR" : "SNAPSHOT_MIRROR"}=${plan.debianMirror}`);
  if (plan.npmRegistry !== undefined) buildArgs.push(`NPM_REGISTRY=${plan.npmRegistry}`);
  return [
    "build",
    "--network=host",
    `--tag=${tag}`,
    `--file=${join(plan.root, "Dockerfile")}`,
    ...buildArgs.map((arg) => `--build-arg=${arg}`),
    ...(plan.caCertificates === undefined ? [] : [`--secret=id=ca-certificates,src=${plan.caCertificates}`]),
    plan.root,
  ];
}

/** The Dockerfile's RUN --mount secrets need BuildKit: Docker 23 and later use it anyway, 20.10 when asked. */
function buildEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, DOCKER_BUILDKIT: "1" };
}

/** A built image; or the exit code of a build that failed (1, with why) or was interrupted (130). */
export type BuildResult = { built: true; image: LocalImage } | { built: false; code: number; failure?: string };

function fail(failure: string): BuildResult {
  return { built: false, code: 1, failure };
}

const INTERRUPTED: BuildResult = { built: false, code: EXIT_INTERRUPTED };

/**
 * Builds the image (its progress on stderr), reads the versions it holds, and gives it those as
 * labels under the tag of their digest. The unlabelled build is tagged only in between.
 */
export async function buildImage(plan: ImageBuildPlan): Promise<BuildResult> {
  if (!existsSync(join(plan.root, "Dockerfile"))) return fail(`there is no Dockerfile at ${plan.root}: run compose from its repository to build the image`);
  const unlabelled = `${IMAGE_NAME}:build-${process.pid}`;
  const build = await runDocker(dockerBuildArgs(plan, unlabelled), { stdout: 2, stderr: 2, env: buildEnvironment() });
  if (build.interrupted) return INTERRUPTED;
  if (build.code !== 0) return fail(`docker build exited with code ${build.code}; its output above says why`);
  try {
    const read = await runTool("docker", ["run", "--rm", "--network=none", "--entrypoint=cat", unlabelled, "/compose/versions"], 60_000);
    const versions = read.code === 0 ? parseVersionsFile(read.stdout) : undefined;
    if (versions === undefined)
      return fail(`the image built from ${plan.root} lists no versions in /compose/versions (${firstLine(read.stderr) || `exit code ${read.code}`})`);
    const labels = imageLabels(versions, isPinnedBuild(plan));
    const tag = imageTagOf(labels);
    const label = await runDocker(["build", "--quiet", ...Object.entries(labels).map(([name, value]) => `--label=${name}=${value}`), `--tag=${tag}`, "-"], {
      stdout: "ignore",
      stderr: 2,
      input: `FROM ${unlabelled}\n`,
      env: buildEnvironment(),
    });
    if (label.interrupted) return INTERRUPTED;
    if (label.code !== 0) return fail(`labelling it as ${tag} failed (docker build exited with code ${label.code})`);
    process.stderr.write(`docker: built ${tag}: ${describeVersions(versions)}\n`);
    return { built: true, image: { tag, versions, pinned: isPinnedBuild(plan) } };
  } finally {
    await runTool("docker", ["image", "rm", unlabelled], 60_000);
  }
}

/**
 * What a failed build from sources that may not answer here can do instead: the same build from
 * what does (a local Debian 12 and the current archive); undefined when it used neither.
 */
export function unreachableSourcesHint(plan: Pick<ImageBuildPlan, "baseImage" | "archive">): string | undefined {
  const sources = [plan.baseImage === undefined ? "Docker's registry" : [], plan.archive === "snapshot" ? "snapshot.debian.org" : []].flat();
  if (sources.length === 0) return undefined;
  return `where ${sources.join(" or ")} does not answer, build from what does: compose docker build --base-image ${plan.baseImage ?? "IMAGE"} --archive current`;
}

/** The host's certificate authorities, when it has them where Debian keeps them. */
export function defaultCaCertificates(): string | undefined {
  return existsSync(HOST_CA_CERTIFICATES) ? HOST_CA_CERTIFICATES : undefined;
}
