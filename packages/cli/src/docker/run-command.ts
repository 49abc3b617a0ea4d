import { posix, win32 } from "node:path";
import { fieldsOf, flagName, flagValue } from "../render/flag-options.js";
import type { RenderFlags } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";

/**
 * The exact `docker run` command of a container render: pure, so tests can read it whole.
 *
 * Inside the container:
 * - the composition's directory is mounted read-only at /compose/project;
 * - the output's directory is mounted writable at its own host path (a Windows path C:\a\b at
 *   /c/a/b), and the working directory is the host's current directory, so every path the inner
 *   render prints (the output line, `--quiet`'s output path) is the one the user knows;
 * - `--variables-file` is mounted read-only at /compose/variables/<its name>;
 * - the render runs as the calling user (files it writes belong to them), with the browser GPU
 *   off, every other render flag as the user gave it.
 */

/** The container's own directory for mounts and its HOME (see the Dockerfile). */
export const CONTAINER_ROOT = "/compose";
export const CONTAINER_PROJECT = `${CONTAINER_ROOT}/project`;
export const CONTAINER_VARIABLES = `${CONTAINER_ROOT}/variables`;

/**
 * Container directories the render needs. The output directory is mounted at its host path, which
 * must neither be one of these, nor inside one, nor above one: the mount would hide them.
 */
export const RESERVED_CONTAINER_PATHS = [
  CONTAINER_ROOT,
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/proc",
  "/run",
  "/sbin",
  "/sys",
  "/usr",
  "/var/cache/fontconfig",
];

export interface ContainerRender {
  /** Image reference, e.g. compose-render:46f1cf70e43e2ce5. */
  image: string;
  /** Absolute host path of the composition's HTML file. */
  compositionFile: string;
  /** Absolute host path of the output file (a directory for png-sequence). */
  output: string;
  /** Absolute host path of --variables-file, when given. */
  variablesFile?: string | undefined;
  /** The host's current directory. */
  cwd: string;
  /** The render flags as typed; --output, --variables-file, --docker and --browser-gpu are replaced. */
  flags: RenderFlags;
  /** The calling user, when the platform has one (not on Windows). */
  user?: { uid: number; gid: number } | undefined;
  /** Give the container a terminal (when stdout and stderr are one): the inner render then draws its progress bar. */
  tty: boolean;
  /** Environment settings for the inner render (COMPOSE_READY_TIMEOUT_MS...). */
  env?: Record<string, string>;
  /** Host platform, for its path syntax; default process.platform. */
  platform?: NodeJS.Platform;
}

function hostPath(platform: NodeJS.Platform) {
  return platform === "win32" ? win32 : posix;
}

/** Where a host path appears inside the (Linux) container: itself, or C:\a\b as /c/a/b. */
export function containerPath(path: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== "win32") return posix.normalize(path).replace(/(.)\/+$/, "$1");
  const match = /^([a-zA-Z]):(?:[\\/](.*))?$/.exec(win32.normalize(path));
  if (!match) throw new UsageError(`--docker cannot mount ${path}: give a path on a drive letter (C:\\...)`);
  const rest = (match[2] ?? "").replace(/\\/g, "/").replace(/\/+$/, "");
  return `/${match[1]!.toLowerCase()}${rest ? `/${rest}` : ""}`;
}

function overlaps(a: string, b: string): boolean {
  return a === b || a === "/" || b === "/" || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** One field of a --mount value, which docker reads as CSV: quoted when it holds a comma or a quote. */
function csvField(field: string): string {
  return /[",\n\r]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

function bindMount(source: string, target: string, readonly: boolean): string {
  const fields = ["type=bind", `source=${source}`, `target=${target}`];
  if (readonly) fields.push("readonly");
  return `--mount=${fields.map(csvField).join(",")}`;
}

/** The user's render flags that the inner render takes as they are (as --name=value, so no value reads as a flag). */
export function passedFlags(flags: RenderFlags): string[] {
  return fieldsOf("container").flatMap((field) => {
    const value = flagValue(flags, field);
    if (value === true) return [flagName(field)];
    if (Array.isArray(value)) return value.map((item) => `${flagName(field)}=${item}`);
    return typeof value === "string" ? [`${flagName(field)}=${value}`] : [];
  });
}

/**
 * Where the output's directory is mounted in the container: at its own path, which must not hide
 * a directory the container needs (a usage error).
 */
export function outputMountTarget(output: string, platform: NodeJS.Platform = process.platform): string {
  const outputDir = hostPath(platform).dirname(output);
  const outputDirInside = containerPath(outputDir, platform);
  const hidden = RESERVED_CONTAINER_PATHS.find((reserved) => overlaps(outputDirInside, reserved));
  if (hidden !== undefined) {
    throw new UsageError(
      `--output ${output}: --docker mounts ${outputDir} at ${outputDirInside} in the container, which would hide the container's ${hidden}; write the output to another directory`,
    );
  }
  return outputDirInside;
}

/** The arguments of `docker` (from `run` on) that render `plan` in the container. */
export function dockerRunArgs(plan: ContainerRender): string[] {
  const platform = plan.platform ?? process.platform;
  const path = hostPath(platform);
  const projectDir = path.dirname(plan.compositionFile);
  const outputDir = path.dirname(plan.output);
  const outputDirInside = outputMountTarget(plan.output, platform);

  const mounts = [bindMount(projectDir, CONTAINER_PROJECT, true), bindMount(outputDir, outputDirInside, false)];
  const inner = [
    "render",
    `${CONTAINER_PROJECT}/${path.basename(plan.compositionFile)}`,
    `--output=${containerPath(plan.output, platform)}`,
    "--no-browser-gpu",
    ...passedFlags(plan.flags),
  ];
  if (plan.variablesFile !== undefined) {
    const inside = `${CONTAINER_VARIABLES}/${path.basename(plan.variablesFile)}`;
    mounts.push(bindMount(plan.variablesFile, inside, true));
    inner.push(`--variables-file=${inside}`);
  }

  return [
    "run",
    "--rm",
    // tini as PID 1: forwards Ctrl-C to the render and reaps the browser's processes.
    "--init",
    ...(plan.tty ? ["--tty"] : []),
    ...(plan.user ? [`--user=${plan.user.uid}:${plan.user.gid}`] : []),
    // Chromium keeps its frames in /dev/shm; Docker's default 64 MB is too small for it.
    "--shm-size=1g",
    ...mounts,
    `--workdir=${containerPath(plan.cwd, platform)}`,
    ...Object.entries(plan.env ?? {}).map(([name, value]) => `--env=${name}=${value}`),
    plan.image,
    ...inner,
  ];
}
