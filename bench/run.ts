/**
 * `npm run bench [name...]`: renders each composition in bench/compositions (1920x1080, 30 fps,
 * 10 s) as users get it and with the floor (bench/lib/floor.ts) in the same run, and prints wall
 * time, frames per second, CPU seconds, capture and encode CPU per frame, peak memory (PSS) of
 * the whole process tree, our wall time divided by the floor's, and fidelity: how many dB of RGB
 * PSNR each output falls below the ideal encode (bench/lib/fidelity.ts), on a window of frames
 * from the middle of the composition.
 *
 * `npm run bench scale [name...]`: each composition (motion and slides unless named) rendered as
 * users get it at --scale 0.5, 1 and 2, and the time, CPU and memory of each against scale 1.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { defaultWorkerCount, validateRenderOptions } from "@compose/core";
import { render } from "@compose/renderer";
import { encodeIdeal, rgbPsnr } from "./lib/fidelity.js";
import { TreeMonitor } from "./lib/process-tree.js";

const root = resolve(import.meta.dirname, "..");
const compositions = join(root, "bench", "compositions");
const gsap = join(root, "node_modules", "gsap", "dist", "gsap.min.js");
const generated = join(root, ".cache", "bench");

interface Run {
  frames: number;
  wallSeconds: number;
  cpuSeconds: number;
  captureMsPerFrame: number;
  encodeMsPerFrame: number;
  peakMb: number;
  reused: number;
  /** dB of RGB PSNR below the ideal encode, over the fidelity window; NaN when not measured. */
  belowIdealDb: number;
  /** Frames replayed without capture for history, and the time that took (one history). */
  replayed: number;
  replayMs: number;
}

/** The Node flags the compose command starts with (its shebang), which "ours" runs with too. */
const CLI_NODE_FLAGS = (() => {
  const shebang = readFileSync(join(root, "packages", "cli", "bin", "compose.js"), "utf8").split("\n")[0]!;
  return shebang
    .replace(/^#!\/usr\/bin\/env -S node\s*/, "")
    .split(/\s+/)
    .filter(Boolean);
})();

/** Compositions also rendered with these worker counts, beside `--workers auto`. */
const EXTRA_WORKERS: Record<string, number[]> = { particles: [1, 2] };

/** The frames fidelity is measured on: two seconds from the middle of the 10 s compositions. */
const FIDELITY_WINDOW = { start: 120, end: 180 };
const FPS = 30;

/**
 * The lossless frames of the window (a png-sequence render) and the PSNR of the ideal standard
 * encode of them; each output is then compared on the same frames.
 */
async function fidelityReference(dir: string): Promise<{ frames: string; idealPsnr: number }> {
  const frames = join(dir, "lossless");
  const result = validateRenderOptions({ format: "png-sequence", workers: 1 });
  if (!result.ok) throw new Error("png-sequence options refused");
  await render({ composition: join(dir, "index.html"), output: frames, options: result.options, frames: FIDELITY_WINDOW });
  const ideal = join(dir, "ideal.mp4");
  await encodeIdeal(frames, "mp4", "standard", FPS, ideal);
  return { frames, idealPsnr: await rgbPsnr(ideal, frames, FPS) };
}

/** Media the compositions need, made once with ffmpeg and kept in .cache/bench. */
function backgroundVideo(): string {
  const file = join(generated, "background.mp4");
  if (existsSync(file)) return file;
  mkdirSync(generated, { recursive: true });
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=1920x1080:rate=30:duration=10",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "20",
    "-pix_fmt",
    "yuv420p",
    file,
  ]);
  return file;
}

function prepare(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `compose-bench-${name}-`));
  cpSync(join(compositions, name), dir, { recursive: true });
  cpSync(gsap, join(dir, "gsap.min.js"));
  if (name === "video") cpSync(backgroundVideo(), join(dir, "background.mp4"));
  return dir;
}

/**
 * One render by `script`, with `workers` (else auto) at `scale` (else 1); its fidelity is measured
 * against `reference` when there is one (at scale 1).
 */
async function measure(
  script: "ours" | "floor",
  dir: string,
  reference: { frames: string; idealPsnr: number } | undefined,
  settings: { workers?: number; scale?: number } = {},
): Promise<Run> {
  const output = join(dir, `${script}.mp4`);
  const started = performance.now();
  // floor.ts reads the composition and the output alone.
  const args = [join(root, "bench", "lib", `${script}.ts`), join(dir, "index.html"), output, String(settings.workers ?? "auto"), String(settings.scale ?? 1)];
  const nodeFlags = script === "ours" ? CLI_NODE_FLAGS : [];
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const monitor = new TreeMonitor(child.pid!);
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const wallSeconds = (performance.now() - started) / 1000;
  const { peakBytes, cpuByRole } = monitor.stop();
  if (code !== 0) throw new Error(`${script} failed on ${dir} with exit code ${code}`);
  const report = JSON.parse(stdout.trim().split("\n").pop()!) as {
    frames: number;
    stats?: { reused: number; replayedFrames: number; replayMs: number };
  };
  return {
    frames: report.frames,
    wallSeconds,
    cpuSeconds: cpuByRole.browser + cpuByRole.encoder + cpuByRole.node,
    captureMsPerFrame: (cpuByRole.browser * 1000) / report.frames,
    encodeMsPerFrame: (cpuByRole.encoder * 1000) / report.frames,
    peakMb: peakBytes / 1024 / 1024,
    reused: report.stats?.reused ?? 0,
    belowIdealDb: reference ? reference.idealPsnr - (await rgbPsnr(output, reference.frames, FPS, FIDELITY_WINDOW.start)) : Number.NaN,
    replayed: report.stats?.replayedFrames ?? 0,
    replayMs: report.stats?.replayMs ?? 0,
  };
}

function table(rows: Array<[string, Run, number]>, versus = "vs floor"): string {
  const header = [
    "run",
    "frames",
    "reused",
    "replayed",
    "replay ms/f",
    "wall s",
    "fps",
    "cpu s",
    "capture ms/f",
    "encode ms/f",
    "peak MB",
    versus,
    "dB below ideal",
  ];
  const lines = rows.map(([name, run, ratio]) => [
    name,
    String(run.frames),
    String(run.reused),
    String(run.replayed),
    run.replayed === 0 ? "-" : (run.replayMs / run.replayed).toFixed(1),
    run.wallSeconds.toFixed(1),
    (run.frames / run.wallSeconds).toFixed(1),
    run.cpuSeconds.toFixed(1),
    run.captureMsPerFrame.toFixed(0),
    run.encodeMsPerFrame.toFixed(0),
    run.peakMb.toFixed(0),
    ratio.toFixed(2),
    Number.isNaN(run.belowIdealDb) ? "-" : run.belowIdealDb.toFixed(2),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join("  ");
  return [format(header), ...lines.map(format)].join("\n");
}

const selected = process.argv.slice(2);
if (selected[0] === "batch") {
  await import("./batch/run.js");
  process.exit(0);
}

/** The scales `npm run bench scale` renders at; the first is the one the others are compared with. */
const SCALES = [1, 0.5, 2];
if (selected[0] === "scale") {
  const chosen = selected.length > 1 ? selected.slice(1) : ["motion", "slides"];
  const scaleRows: Array<[string, Run, number]> = [];
  for (const name of chosen) {
    const dir = prepare(name);
    let base: Run | undefined;
    for (const scale of SCALES) {
      process.stderr.write(`bench: ${name} (compose, --scale ${scale})...\n`);
      const run = await measure("ours", dir, undefined, { scale });
      base ??= run;
      scaleRows.push([`${name} --scale ${scale}`, run, run.wallSeconds / base.wallSeconds]);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(table(scaleRows, "vs scale 1"));
  process.exit(0);
}
const names = readdirSync(compositions).filter((name) => selected.length === 0 || selected.includes(name));
const rows: Array<[string, Run, number]> = [];
process.stderr.write(`bench: ${availableParallelism()} cores, --workers auto = ${defaultWorkerCount(availableParallelism())}\n`);
for (const name of names) {
  const dir = prepare(name);
  process.stderr.write(`bench: ${name} (lossless frames for fidelity)...\n`);
  const reference = await fidelityReference(dir);
  process.stderr.write(`bench: ${name} (floor)...\n`);
  const floor = await measure("floor", dir, reference);
  process.stderr.write(`bench: ${name} (compose)...\n`);
  const ours = await measure("ours", dir, reference);
  rows.push([`${name} floor`, floor, 1], [`${name} compose`, ours, ours.wallSeconds / floor.wallSeconds]);
  for (const workers of EXTRA_WORKERS[name] ?? []) {
    process.stderr.write(`bench: ${name} (compose, --workers ${workers})...\n`);
    const run = await measure("ours", dir, reference, { workers });
    rows.push([`${name} compose w${workers}`, run, run.wallSeconds / floor.wallSeconds]);
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log(table(rows));
