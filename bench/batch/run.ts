/**
 * `npm run bench batch`: the 12 rows of bench/batch/lower-third (1280x720, 4 s, GSAP, standard
 * quality; its first second is the same for every row) rendered in one run: `compose render
 * --batch` with its shared frames (a frame every row paints alike captured once), the same batch
 * with --no-shared-frames, 12 separate `compose render --variables-file` runs one after another,
 * and HyperFrames' `render --batch` when HYPERFRAMES_BIN names its command (a script ending in .js
 * runs under this Node). Each row's time is split into start-up (process to the row's render),
 * waiting (for a free lane), load, capture and encode (what follows capture: the encoder's tail,
 * assembly, the check of the output), read from the rows' `--json` events. The machine may be
 * shared, so each phase prints the load average at its start and end.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { findBrowserExecutable } from "@compose/renderer";

const root = resolve(import.meta.dirname, "../..");
const cli = join(root, "packages", "cli", "bin", "compose.js");

interface RowTiming {
  row: number;
  /** Milliseconds from the process's start: when the row's render began, started (loaded) and finished. */
  begin: number;
  started: number;
  finished: number;
  captureMs: number;
  /** Frames the row's browser captured, and those it took from an earlier row. */
  captured: number;
  shared: number;
}

interface Way {
  name: string;
  wallMs: number;
  rows: RowTiming[];
  /** Per row, the process start it counts from (one for a batch). */
  spawnedAt: number[];
  batch: boolean;
}

interface FinishedEvent {
  type: string;
  row?: number;
  elapsedMs?: number;
  captureMs?: number;
  frames?: number;
  stats?: { reused: number; shared: number };
  code?: string;
  message?: string;
}

/** Runs `compose <args>` with --json, noting when each event line arrives. */
async function runJson(args: string[], cwd: string): Promise<{ wallMs: number; timings: Map<number, RowTiming> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args, "--json"], { cwd, stdio: ["ignore", "pipe", "inherit"] });
  const timings = new Map<number, RowTiming>();
  for await (const line of createInterface({ input: child.stdout })) {
    const at = performance.now() - started;
    const event = JSON.parse(line) as FinishedEvent;
    const row = event.row ?? 1;
    const timing = timings.get(row) ?? { row, begin: 0, started: 0, finished: 0, captureMs: 0, captured: 0, shared: 0 };
    if (event.type === "started") timing.started = at;
    if (event.type === "finished") {
      const { reused, shared } = event.stats!;
      Object.assign(timing, { finished: at, begin: at - event.elapsedMs!, captureMs: event.captureMs!, captured: event.frames! - reused - shared, shared });
    }
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

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** Runs one phase between two lines that give the load average (1, 5 and 15 minutes) at its start and end. */
async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  process.stderr.write(`bench batch: ${name}... (load average ${load()})\n`);
  const result = await run();
  process.stderr.write(`bench batch: ${name} done (load average ${load()})\n`);
  return result;
}

const dir = mkdtempSync(join(tmpdir(), "compose-bench-batch-"));
cpSync(join(root, "bench", "batch", "lower-third"), dir, { recursive: true });
cpSync(join(root, "node_modules", "gsap", "dist", "gsap.min.js"), join(dir, "gsap.min.js"));
const rows = JSON.parse(readFileSync(join(dir, "rows.json"), "utf8")) as object[];
process.stderr.write(`bench batch: ${rows.length} rows, ${availableParallelism()} cores\n`);

const ways: Way[] = [];
for (const [name, folder, flags] of [
  ["compose --batch", "batch", []],
  ["compose --batch --no-shared-frames", "unshared", ["--no-shared-frames"]],
] as const) {
  const batch = await phase(name, () => runJson(["render", dir, "--batch", join(dir, "rows.json"), "-o", join(dir, folder, "{index}.mp4"), ...flags], dir));
  ways.push({ name, wallMs: batch.wallMs, rows: [...batch.timings.values()], spawnedAt: rows.map(() => 0), batch: true });
}

const separate: RowTiming[] = [];
const spawnedAt: number[] = [];
const separateMs = await phase(`${rows.length} separate compose render runs`, async () => {
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
  return performance.now() - separateStart;
});
ways.push({ name: "compose, separate runs", wallMs: separateMs, rows: separate, spawnedAt, batch: false });

/** Rows whose output in `folder` decodes to the same frames and audio as their separate render. */
function exactRows(folder: string): number {
  let exact = 0;
  for (let row = 1; row <= rows.length; row++) {
    const name = `${String(row).padStart(2, "0")}.mp4`;
    if (framesMd5(join(dir, folder, name)) === framesMd5(join(dir, "separate", name))) exact++;
  }
  return exact;
}
const exact = { shared: exactRows("batch"), unshared: exactRows("unshared") };

/** HyperFrames' command, from HYPERFRAMES_BIN: a .js script runs under this Node (its own launcher may ask for a newer one). */
function hyperFramesCommand(): [string, string[]] | undefined {
  const bin = process.env.HYPERFRAMES_BIN;
  if (!bin) return undefined;
  if (!existsSync(bin)) throw new Error(`HYPERFRAMES_BIN names ${bin}, which does not exist`);
  return bin.endsWith(".js") || bin.endsWith(".mjs") ? [process.execPath, [bin]] : [bin, []];
}

const hyperframes = hyperFramesCommand();
/** HyperFrames' wall time, or why it did not render. */
let hyperframesRun: { ms: number } | { error: string } | undefined;
if (hyperframes) {
  hyperframesRun = await phase("HyperFrames render --batch", async () => {
    const [command, prefix] = hyperframes;
    const started = performance.now();
    try {
      // At compose's standard CRF (18), HyperFrames' default quality encoding at 16; in the browser
      // compose uses, so that it never tries to download one.
      execFileSync(command, [...prefix, "render", "--batch", "rows.json", "-o", "hf/row-{index}.mp4", "--crf", "18", "--quiet"], {
        cwd: dir,
        stdio: ["ignore", "ignore", "pipe"],
        env: {
          ...process.env,
          HYPERFRAMES_BROWSER_PATH: process.env.HYPERFRAMES_BROWSER_PATH ?? findBrowserExecutable(),
          HYPERFRAMES_NO_TELEMETRY: "1",
          DO_NOT_TRACK: "1",
        },
      });
      return { ms: performance.now() - started };
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? error);
      return {
        error:
          stderr
            .trim()
            .split("\n")
            .filter((line) => /error|fail|not found/i.test(line))[0] ?? stderr.trim().split("\n")[0]!,
      };
    }
  });
}
const hyperframesMs = hyperframesRun && "ms" in hyperframesRun ? hyperframesRun.ms : undefined;

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const header = ["way", "wall s", "s/row", "start-up s", "waiting s", "load s", "capture s", "encode s", "captured/row", "shared/row"];
const lines = ways.map((way) => {
  const ordered = [...way.rows].sort((a, b) => a.row - b.row);
  // A batch starts once: its start-up is the first row's, shared by all; a separate run starts each time.
  const startup = way.batch ? Math.min(...ordered.map((row) => row.begin)) : mean(ordered.map((row, i) => row.begin - way.spawnedAt[i]!));
  const waiting = way.batch ? mean(ordered.map((row) => row.begin - startup)) : 0;
  return [
    way.name,
    seconds(way.wallMs),
    seconds(way.wallMs / ordered.length),
    seconds(startup),
    seconds(waiting),
    seconds(mean(ordered.map((row) => row.started - row.begin))),
    seconds(mean(ordered.map((row) => row.captureMs))),
    seconds(mean(ordered.map((row) => row.finished - row.started - row.captureMs))),
    mean(ordered.map((row) => row.captured)).toFixed(1),
    mean(ordered.map((row) => row.shared)).toFixed(1),
  ];
});
if (hyperframesMs !== undefined)
  lines.push(["HyperFrames --batch", seconds(hyperframesMs), seconds(hyperframesMs / rows.length), "-", "-", "-", "-", "-", "-", "-"]);
const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
console.log([format(header), ...lines.map(format)].join("\n"));
const [shared, unshared] = ways;
console.log(
  `batch / separate runs: ${(shared!.wallMs / separateMs).toFixed(2)} with shared frames, ${(unshared!.wallMs / separateMs).toFixed(2)} without (target at most 0.6)`,
);
console.log(`batch with / without shared frames: ${(shared!.wallMs / unshared!.wallMs).toFixed(2)}`);
console.log(
  hyperframesRun === undefined
    ? "HyperFrames: not run (set HYPERFRAMES_BIN to its command)"
    : "error" in hyperframesRun
      ? `HyperFrames failed: ${hyperframesRun.error}`
      : `batch / HyperFrames: ${(shared!.wallMs / hyperframesRun.ms).toFixed(2)} with shared frames, ${(unshared!.wallMs / hyperframesRun.ms).toFixed(2)} without (target at most 0.45)`,
);
console.log(
  `rows whose batch output decodes to the same frames and audio as their separate render: ${exact.shared} of ${rows.length} with shared frames, ${exact.unshared} without`,
);
rmSync(dir, { recursive: true, force: true });
