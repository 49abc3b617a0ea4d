/**
 * `npm run bench batch`: the 12 rows of bench/batch/lower-third (1280x720, 4 s, GSAP, standard
 * quality) rendered three ways in one run: `compose render --batch`, 12 separate `compose render
 * --variables-file` runs one after another, and HyperFrames' `render --batch` when it is
 * installed. Each row's time is split into start-up (process to the row's render), waiting (for a
 * free lane), load, capture and encode (what follows capture: the encoder's tail, assembly, the
 * check of the output), read from the rows' `--json` events.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "packages", "cli", "bin", "compose.js");

interface RowTiming {
  row: number;
  /** Milliseconds from the process's start: when the row's render began, started (loaded) and finished. */
  begin: number;
  started: number;
  finished: number;
  captureMs: number;
}

interface Way {
  name: string;
  wallMs: number;
  rows: RowTiming[];
  /** Per row, the process start it counts from (one for a batch). */
  spawnedAt: number[];
}

/** Runs `compose <args>` with --json, noting when each event line arrives. */
async function runJson(args: string[], cwd: string): Promise<{ wallMs: number; timings: Map<number, RowTiming> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args, "--json"], { cwd, stdio: ["ignore", "pipe", "inherit"] });
  const timings = new Map<number, RowTiming>();
  for await (const line of createInterface({ input: child.stdout })) {
    const at = performance.now() - started;
    const event = JSON.parse(line) as { type: string; row?: number; elapsedMs?: number; captureMs?: number; code?: string; message?: string };
    const row = event.row ?? 1;
    const timing = timings.get(row) ?? { row, begin: 0, started: 0, finished: 0, captureMs: 0 };
    if (event.type === "started") timing.started = at;
    if (event.type === "finished") Object.assign(timing, { finished: at, begin: at - event.elapsedMs!, captureMs: event.captureMs! });
    if (event.type === "failed") throw new Error(`row ${row} failed: [${event.code}] ${event.message}`);
    timings.set(row, timing);
  }
  const code = await new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.on("close", done)));
  if (code !== 0) throw new Error(`compose ${args.join(" ")} exited with ${code}`);
  return { wallMs: performance.now() - started, timings };
}

function framesMd5(file: string): string {
  return execFileSync("ffmpeg", ["-v", "error", "-i", file, "-map", "0", "-f", "framemd5", "-"], { encoding: "utf8", maxBuffer: 1 << 26 })
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .join("\n");
}

function findHyperFrames(): string | undefined {
  const local = join(root, "node_modules", ".bin", "hyperframes");
  if (existsSync(local)) return local;
  try {
    return execFileSync("sh", ["-c", "command -v hyperframes"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const dir = mkdtempSync(join(tmpdir(), "compose-bench-batch-"));
cpSync(join(root, "bench", "batch", "lower-third"), dir, { recursive: true });
cpSync(join(root, "node_modules", "gsap", "dist", "gsap.min.js"), join(dir, "gsap.min.js"));
const rows = JSON.parse(readFileSync(join(dir, "rows.json"), "utf8")) as object[];
process.stderr.write(`bench batch: ${rows.length} rows, ${availableParallelism()} cores\n`);

const ways: Way[] = [];
process.stderr.write("bench batch: compose render --batch...\n");
const batch = await runJson(["render", dir, "--batch", join(dir, "rows.json"), "-o", join(dir, "batch", "{index}.mp4")], dir);
ways.push({ name: "compose --batch", wallMs: batch.wallMs, rows: [...batch.timings.values()], spawnedAt: rows.map(() => 0) });

process.stderr.write(`bench batch: ${rows.length} separate compose render runs...\n`);
const separate: RowTiming[] = [];
const spawnedAt: number[] = [];
const separateStart = performance.now();
for (const [index, row] of rows.entries()) {
  const file = join(dir, `row-${index + 1}.json`);
  writeFileSync(file, JSON.stringify(row));
  const offset = performance.now() - separateStart;
  const run = await runJson(["render", dir, "--variables-file", file, "-o", join(dir, "separate", `${String(index + 1).padStart(2, "0")}.mp4`)], dir);
  const timing = run.timings.get(1)!;
  separate.push({ ...timing, row: index + 1, begin: timing.begin + offset, started: timing.started + offset, finished: timing.finished + offset });
  spawnedAt.push(offset);
}
ways.push({ name: "compose, separate runs", wallMs: performance.now() - separateStart, rows: separate, spawnedAt });

let exact = 0;
for (let row = 1; row <= rows.length; row++) {
  const name = `${String(row).padStart(2, "0")}.mp4`;
  if (framesMd5(join(dir, "batch", name)) === framesMd5(join(dir, "separate", name))) exact++;
}

const hyperframes = findHyperFrames();
let hyperframesMs: number | undefined;
if (hyperframes) {
  process.stderr.write("bench batch: HyperFrames render --batch...\n");
  const started = performance.now();
  execFileSync(hyperframes, ["render", "--batch", "rows.json", "-o", "hf/row-{index}.mp4"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  hyperframesMs = performance.now() - started;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const header = ["way", "wall s", "s/row", "start-up s", "waiting s", "load s", "capture s", "encode s"];
const lines = ways.map((way) => {
  const ordered = [...way.rows].sort((a, b) => a.row - b.row);
  // A batch starts once: its start-up is the first row's, shared by all; a separate run starts each time.
  const startup = way.name === "compose --batch" ? Math.min(...ordered.map((row) => row.begin)) : mean(ordered.map((row, i) => row.begin - way.spawnedAt[i]!));
  const waiting = way.name === "compose --batch" ? mean(ordered.map((row) => row.begin - startup)) : 0;
  return [
    way.name,
    seconds(way.wallMs),
    seconds(way.wallMs / ordered.length),
    seconds(startup),
    seconds(waiting),
    seconds(mean(ordered.map((row) => row.started - row.begin))),
    seconds(mean(ordered.map((row) => row.captureMs))),
    seconds(mean(ordered.map((row) => row.finished - row.started - row.captureMs))),
  ];
});
if (hyperframesMs !== undefined) lines.push(["HyperFrames --batch", seconds(hyperframesMs), seconds(hyperframesMs / rows.length), "-", "-", "-", "-", "-"]);
const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
console.log([format(header), ...lines.map(format)].join("\n"));
console.log(`batch / separate runs: ${(ways[0]!.wallMs / ways[1]!.wallMs).toFixed(2)} (target at most 0.6)`);
console.log(hyperframesMs === undefined ? "HyperFrames: not installed (no hyperframes on PATH or in node_modules)" : `batch / HyperFrames: ${(ways[0]!.wallMs / hyperframesMs).toFixed(2)} (target at most 0.45)`);
console.log(`rows whose batch output decodes to the same frames and audio as their separate render: ${exact} of ${rows.length}`);
rmSync(dir, { recursive: true, force: true });
