/**
 * `npm run bench [name...]`: renders each composition in bench/compositions at its own size
 * (1920x1080, 30 fps, 10 s) with the CLI, as a user would, and prints wall time, frames per
 * second, CPU seconds and peak memory of the whole process tree.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { reapedChildrenCpuSeconds, watchPeakRss } from "./lib/process-tree.js";

const root = resolve(import.meta.dirname, "..");
const compositions = join(root, "bench", "compositions");
const cli = join(root, "packages", "cli", "bin", "compose.js");
const gsap = join(root, "node_modules", "gsap", "dist", "gsap.min.js");

interface Measurement {
  name: string;
  frames: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

function prepare(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `compose-bench-${name}-`));
  cpSync(join(compositions, name), dir, { recursive: true });
  cpSync(gsap, join(dir, "gsap.min.js"));
  return dir;
}

async function measure(name: string, extraArgs: string[]): Promise<Measurement> {
  const dir = prepare(name);
  const output = join(dir, "out.mp4");
  const cpuBefore = reapedChildrenCpuSeconds();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, "render", dir, "-o", output, "--quiet", ...extraArgs], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stopWatching = watchPeakRss(child.pid!);
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const wallSeconds = (performance.now() - started) / 1000;
  const peak = stopWatching();
  if (code !== 0) throw new Error(`rendering ${name} failed with exit code ${code}`);
  const frames = await countFrames(output);
  rmSync(dir, { recursive: true, force: true });
  return {
    name,
    frames,
    wallSeconds,
    cpuSeconds: reapedChildrenCpuSeconds() - cpuBefore,
    peakRssMb: peak / 1024 / 1024,
  };
}

function countFrames(file: string): Promise<number> {
  return new Promise((done, fail) => {
    const probe = spawn("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=nb_frames", "-of", "csv=p=0", file]);
    let text = "";
    probe.stdout.on("data", (chunk) => (text += chunk));
    probe.on("close", (code) => (code === 0 ? done(Number(text.trim())) : fail(new Error(`ffprobe failed on ${file}`))));
  });
}

function table(rows: Measurement[]): string {
  const header = ["composition", "frames", "wall s", "fps", "cpu s", "peak MB"];
  const lines = rows.map((row) => [
    row.name,
    String(row.frames),
    row.wallSeconds.toFixed(1),
    (row.frames / row.wallSeconds).toFixed(1),
    row.cpuSeconds.toFixed(1),
    row.peakRssMb.toFixed(0),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join("  ");
  return [format(header), ...lines.map(format)].join("\n");
}

const selected = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const extraArgs = process.argv.slice(2).filter((arg) => arg.startsWith("-"));
const names = readdirSync(compositions).filter((name) => selected.length === 0 || selected.includes(name));
const rows: Measurement[] = [];
for (const name of names) {
  process.stderr.write(`bench: ${name}...\n`);
  rows.push(await measure(name, extraArgs));
}
console.log(table(rows));
