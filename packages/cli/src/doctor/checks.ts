import { readFileSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { availableParallelism, freemem, tmpdir, totalmem } from "node:os";
import { defaultWorkerCount, FORMAT_TABLE, isFolderOutput, MAX_WORKERS, OUTPUT_FORMATS, paletteEncoding, plural, type DoctorCheck } from "@compose/core";
import { toolPath, TOOL_PATH_VARIABLES, type Tool } from "@compose/renderer/tools";
import { describeEngineProblem, probeDockerEngine } from "../docker/engine.js";
import { listImages, pinnedImageOf, type LocalImage } from "../docker/image.js";
import { describeVersions } from "../docker/image-versions.js";
import { checkBrowser } from "./browser-check.js";
import { detectPackageManager, installCommand, type PackageManager } from "./install-command.js";
import { firstLine, runTool, whichSync } from "./run-tool.js";

/** A check's status (pass, warn, fail) and result: the shape `compose doctor --json` prints, declared in core. */
export type CheckStatus = DoctorCheck["status"];
export type CheckResult = DoctorCheck;

export interface DoctorContext {
  env: NodeJS.ProcessEnv;
  packageManager: PackageManager;
  /** Directories whose free space matters: temporary files and the output directory. */
  tempDir: string;
  workDir: string;
  /** Time limit of the browser launch-and-render check. */
  browserTimeoutMs: number;
}

export function defaultDoctorContext(): DoctorContext {
  return {
    env: process.env,
    packageManager: detectPackageManager(),
    tempDir: tmpdir(),
    workDir: process.cwd(),
    browserTimeoutMs: 30_000,
  };
}

export const MIN_NODE_MAJOR = 20;
/** Worker rule: each worker's browser uses about 256 MB. */
export const WORKER_MEMORY_BYTES = 256 * 1024 * 1024;
/** Worker rule: one worker on machines with 4 GB of RAM or less. */
const SMALL_MACHINE_BYTES = 4 * 1024 ** 3;
const DISK_FAIL_BYTES = 200 * 1024 ** 2;
const DISK_WARN_BYTES = 2 * 1024 ** 3;

/**
 * The encoders ffmpeg needs, one per video format. ffmpeg's own are in every build and are not
 * checked: PNG (a folder of frames), and GIF with QuickTime Animation (a paletted format's parts).
 */
export const FORMAT_ENCODERS = OUTPUT_FORMATS.filter((format) => !isFolderOutput(format) && !paletteEncoding(format)).map((format) => ({
  encoder: FORMAT_TABLE[format].video.codec,
  format,
}));

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}

export function checkNode(version: string = process.versions.node, manager?: PackageManager): CheckResult {
  const major = Number(version.split(".")[0]);
  const base = { id: "node", name: "Node.js" };
  if (major >= MIN_NODE_MAJOR) return { ...base, status: "pass", detail: `v${version}` };
  return {
    ...base,
    status: "fail",
    detail: `v${version}; compose needs Node.js ${MIN_NODE_MAJOR} or later`,
    fix:
      manager === "brew"
        ? "brew install node@20"
        : "install Node.js 20 or later from https://nodejs.org/en/download (or your distribution's nodesource packages)",
  };
}

/** `ffmpeg version 5.1.6-0+deb12u1 Copyright ...` -> `5.1.6-0+deb12u1`. */
function toolVersion(output: string, tool: string): string {
  const match = new RegExp(`^${tool} version (\\S+)`, "m").exec(output);
  return match?.[1] ?? firstLine(output);
}

async function checkTool(tool: Tool, context: DoctorContext): Promise<{ result: CheckResult; path?: string }> {
  const spec = { id: tool, tool, envVariable: TOOL_PATH_VARIABLES[tool] };
  const fromEnv = context.env[spec.envVariable];
  const program = toolPath(tool, context.env);
  const install = installCommand({ apt: "ffmpeg" }, context.packageManager);
  const base = { id: spec.id, name: spec.tool };
  const run = await runTool(program, ["-hide_banner", "-version"]);
  if (!run.started) {
    const where = fromEnv ? `${spec.envVariable}=${fromEnv} does not exist or is not executable` : "not found on PATH";
    return {
      result: {
        ...base,
        status: "fail",
        detail: `${where} (${spec.envVariable} sets its path)`,
        fix: fromEnv ? `unset ${spec.envVariable}, or set it to ${spec.tool}'s path` : install,
      },
    };
  }
  const path = whichSync(program, context.env.PATH) ?? program;
  if (run.code !== 0) {
    return {
      result: { ...base, status: "fail", detail: `${path} -version failed: ${firstLine(run.stderr) || `exit code ${run.code}`}`, fix: install },
    };
  }
  return { result: { ...base, status: "pass", detail: `${toolVersion(run.stdout, spec.tool)} (${path})` }, path: program };
}

export function checkFfmpeg(context: DoctorContext) {
  return checkTool("ffmpeg", context);
}

export async function checkFfprobe(context: DoctorContext): Promise<CheckResult> {
  return (await checkTool("ffprobe", context)).result;
}

/** Names in `ffmpeg -encoders` output: after the legend's `------` line, ` V....D libx264   libx264 H.264 ...`. */
export function parseEncoderNames(output: string): Set<string> {
  const names = new Set<string>();
  const all = output.split("\n");
  const separator = all.findIndex((line) => /^\s*-{3,}\s*$/.test(line));
  for (const line of all.slice(separator + 1)) {
    const match = /^\s*[VAS][.A-Z]{5}\s+(\S+)/.exec(line);
    if (match && match[1] !== "=") names.add(match[1]!);
  }
  return names;
}

export async function checkEncoders(ffmpeg: string | undefined, context: DoctorContext): Promise<CheckResult> {
  const base = { id: "encoders", name: "encoders" };
  const wanted = FORMAT_ENCODERS.map(({ encoder, format }) => `${encoder} (${format})`).join(", ");
  const install = installCommand({ apt: "ffmpeg" }, context.packageManager);
  if (ffmpeg === undefined) return { ...base, status: "fail", detail: `not checked without ffmpeg: ${wanted} are needed`, fix: install };
  const run = await runTool(ffmpeg, ["-hide_banner", "-encoders"]);
  if (!run.started || run.code !== 0) {
    return { ...base, status: "fail", detail: `ffmpeg -encoders failed: ${firstLine(run.stderr) || run.startError || `exit code ${run.code}`}`, fix: install };
  }
  const names = parseEncoderNames(run.stdout);
  const missing = FORMAT_ENCODERS.filter(({ encoder }) => !names.has(encoder));
  if (missing.length === 0) return { ...base, status: "pass", detail: wanted };
  return {
    ...base,
    status: "fail",
    detail: `this ffmpeg lacks ${missing.map(({ encoder, format }) => `${encoder} (needed for ${format})`).join(", ")}`,
    fix: `${install} (a build with ${missing.map(({ encoder }) => encoder).join(", ")}; Debian's has them all)`,
  };
}

export async function checkBrowserRenders(context: DoctorContext): Promise<CheckResult> {
  const base = { id: "browser", name: "browser" };
  const install = installCommand({ apt: "chromium-headless-shell", brew: "--cask chromium" }, context.packageManager);
  try {
    const result = await checkBrowser(context.browserTimeoutMs);
    const rendered = `${result.version} (${result.executable}): launched and rendered a test frame in ${(result.ms / 1000).toFixed(1)} s`;
    if (!result.beginFrame) {
      return {
        ...base,
        status: "warn",
        detail: `${rendered}, but it has no BeginFrame control, so renders use slower screenshot capture`,
        fix: `${install} (and unset COMPOSE_BROWSER)`,
      };
    }
    return { ...base, status: "pass", detail: rendered };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const notFound = /was not found/.test(message);
    return {
      ...base,
      status: "fail",
      detail: notFound
        ? `chromium-headless-shell was not found${context.env.COMPOSE_BROWSER ? ` at COMPOSE_BROWSER=${context.env.COMPOSE_BROWSER}` : ""} (COMPOSE_BROWSER sets its path)`
        : firstLine(message),
      fix: notFound && context.env.COMPOSE_BROWSER ? `unset COMPOSE_BROWSER, or set it to a Chromium headless shell; else ${install}` : install,
    };
  }
}

/** The image `compose render --docker` would use and what it holds, and the others it can be given with --image. */
export function describeImages(images: LocalImage[], pinned: LocalImage | undefined = pinnedImageOf(images)): string {
  const used = pinned?.versions
    ? `renders in ${pinned.tag}: ${describeVersions(pinned.versions)}`
    : "no image with the pinned versions yet: compose render --docker builds one (compose docker build --archive current builds from Debian's current archive)";
  const others = images.flatMap(({ tag, versions }) =>
    tag === pinned?.tag || versions === undefined
      ? []
      : [`${tag} (${versions.archive === "current" ? "current archive" : versions.archive}, ${versions.browser})`],
  );
  return others.length === 0 ? used : `${used}; with --image: ${others.join(", ")}`;
}

export async function checkDocker(context: DoctorContext): Promise<CheckResult> {
  const base = { id: "docker", name: "docker" };
  const status = await probeDockerEngine();
  if (status.state === "ready") {
    const engine = `CLI ${status.clientVersion}, engine ${status.engineVersion}: container mode (--docker) is available`;
    return { ...base, status: "pass", detail: `${engine}; ${describeImages(await listImages())}` };
  }
  // The same probe and fix as `compose render --docker`, which refuses to start in this state.
  const { fix } = describeEngineProblem(status, context.packageManager);
  const consequence = "no container mode (--docker); local rendering does not need it";
  if (status.state === "no-client") {
    return { ...base, status: "warn", detail: `the docker CLI was not found: ${consequence}`, fix };
  }
  return {
    ...base,
    status: "warn",
    detail: `CLI ${status.clientVersion ?? "unknown version"}, engine not reachable (${status.reason}): ${consequence}`,
    fix,
  };
}

export function checkCores(cores: number = availableParallelism()): CheckResult {
  const workers = defaultWorkerCount(cores);
  return {
    id: "cores",
    name: "cores",
    status: "pass",
    detail: `${plural(cores, "core")}: --workers auto uses ${workers} (half the cores, at most 4)`,
  };
}

/** MemAvailable from /proc/meminfo (what can be used without swapping); os.freemem() elsewhere. */
export function availableMemory(): number {
  try {
    const match = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync("/proc/meminfo", "utf8"));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // not Linux
  }
  return freemem();
}

export function checkMemory(total: number = totalmem(), available: number = availableMemory(), cores: number = availableParallelism()): CheckResult {
  const base = { id: "memory", name: "memory" };
  const fits = Math.floor(available / WORKER_MEMORY_BYTES);
  const defaultWorkers = defaultWorkerCount(cores);
  const summary = `${formatBytes(total)} total, ${formatBytes(available)} available`;
  if (fits < 1) {
    return {
      ...base,
      status: "fail",
      detail: `${summary}: not enough for one worker (about 256 MB each)`,
      fix: "close other programs to free memory (or add memory / swap)",
    };
  }
  if (total <= SMALL_MACHINE_BYTES || fits < defaultWorkers) {
    return {
      ...base,
      status: "warn",
      detail: `${summary}: room for ${plural(fits, "worker")} at about 256 MB each; render with one worker here`,
      fix: "compose render --workers 1",
    };
  }
  return {
    ...base,
    status: "pass",
    detail: `${summary}: room for ${fits >= MAX_WORKERS ? `the maximum of ${MAX_WORKERS}` : fits} workers at about 256 MB each`,
  };
}

async function freeBytes(path: string): Promise<number | undefined> {
  try {
    const stats = await statfs(path);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

export async function checkDisk(context: DoctorContext): Promise<CheckResult> {
  const base = { id: "disk", name: "disk" };
  const places = [...new Set([context.tempDir, context.workDir])];
  const measured = await Promise.all(places.map(async (path) => ({ path, free: await freeBytes(path) })));
  const known = measured.filter((place): place is { path: string; free: number } => place.free !== undefined);
  const detail = known.map(({ path, free }) => `${formatBytes(free)} free in ${path}`).join(", ") || "free space unknown";
  const lowest = known.reduce<{ path: string; free: number } | undefined>(
    (low, place) => (low === undefined || place.free < low.free ? place : low),
    undefined,
  );
  if (lowest === undefined) return { ...base, status: "warn", detail, fix: "check free space with df -h" };
  const fix = `free space in ${lowest.path}${lowest.path === context.tempDir ? " (or point TMPDIR at a larger disk)" : ""}`;
  if (lowest.free < DISK_FAIL_BYTES) return { ...base, status: "fail", detail: `${detail}: too little for the frames and chunks of a render`, fix };
  if (lowest.free < DISK_WARN_BYTES) return { ...base, status: "warn", detail: `${detail}: long or png-sequence renders may not fit`, fix };
  return { ...base, status: "pass", detail };
}

/** Every check, in display order. Independent checks run at the same time. */
export async function runChecks(context: DoctorContext): Promise<CheckResult[]> {
  const ffmpeg = checkFfmpeg(context);
  const [ffmpegResult, encoders, ffprobe, browser, docker, disk] = await Promise.all([
    ffmpeg.then((found) => found.result),
    ffmpeg.then((found) => checkEncoders(found.path, context)),
    checkFfprobe(context),
    checkBrowserRenders(context),
    checkDocker(context),
    checkDisk(context),
  ]);
  return [checkNode(undefined, context.packageManager), ffmpegResult, encoders, ffprobe, browser, docker, checkCores(), checkMemory(), disk];
}
