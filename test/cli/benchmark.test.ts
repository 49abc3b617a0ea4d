/**
 * compose benchmark on a tiny composition: a table with one row per worker count and a
 * recommendation within the allowed ranges; the renders' temporary files are gone afterwards.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concurrencyRange } from "../../packages/cli/src/benchmark/recommend.js";
import { lines, runCli, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const html = compositionHtml({
  id: "tiny",
  width: 160,
  height: 90,
  duration: 1,
  background: "#202020",
  body: `<div id="dot" style="position:absolute;left:0;top:35px;width:20px;height:20px;background:#ff0"></div>`,
  after: `<script>document.getElementById("dot").animate([{ transform: "translateX(0)" }, { transform: "translateX(140px)" }], { duration: 1000, fill: "both" });</script>`,
});

let project: TempProject;
let scratch: string;
let text: CliResult;
let json: CliResult;
const cores = availableParallelism();
const candidates = Array.from({ length: Math.min(8, cores) }, (_, i) => i + 1);

beforeAll(async () => {
  project = await createProject({ "index.html": html }, { prefix: "compose-benchmark-test-" });
  // The benchmark's temporary outputs go to TMPDIR: an empty one shows whether anything is left.
  scratch = await mkdtemp(join(tmpdir(), "compose-benchmark-tmp-"));
  text = await runCli(["benchmark", project.dir, "--seconds", "0.5"], { env: { TMPDIR: scratch } });
  json = await runCli(["benchmark", project.dir, "--seconds", "0.5", "--workers", "1", "--json"], { env: { TMPDIR: scratch } });
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  await project?.remove();
});

describe("compose benchmark", () => {
  it("prints a table with frames per second, wall time and peak memory per worker count", () => {
    expect(text.code, text.stderr).toBe(0);
    const out = lines(text.stdout);
    expect(out[0]).toBe("tiny (160x90): 15 frames (0.50 s at 30 fps), mp4, standard quality");
    const header = out.findIndex((line) => /^workers\s+frames\/s\s+wall time\s+peak memory$/.test(line.trim()));
    expect(header, text.stdout).toBeGreaterThan(0);
    const rows = out.slice(header + 1, header + 1 + candidates.length).map((line) => line.trim().split(/\s{2,}/));
    expect(rows.map((row) => Number(row[0]))).toEqual(candidates);
    for (const [, fps, wall, memory] of rows) {
      expect(Number(fps)).toBeGreaterThan(0);
      expect(wall).toMatch(/^\d+\.\d\d s$/);
      expect(memory).toMatch(/^\d+(\.\d\d)? (MiB|GiB)$/);
    }
  });

  it("recommends --workers and --max-concurrent-renders within the allowed ranges", () => {
    const match = /^recommended: --workers (\d+) --max-concurrent-renders (\d+)$/m.exec(text.stdout);
    expect(match, text.stdout).not.toBeNull();
    const [workers, concurrent] = [Number(match![1]), Number(match![2])];
    expect(candidates).toContain(workers);
    const [, most] = concurrencyRange(cores);
    expect(concurrent).toBeGreaterThanOrEqual(1);
    expect(concurrent).toBeLessThanOrEqual(most);
    // The guidance: 4 cores or fewer -> 1.
    if (cores <= 4) expect(concurrent).toBe(1);
  });

  it("gives the same as JSON, with peak memory of the whole process tree", () => {
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({
      composition: { id: "tiny", width: 160, height: 90 },
      slice: { startFrame: 0, endFrame: 15, frames: 15 },
      fps: 30,
      format: "mp4",
      machine: { cores },
      recommended: { workers: 1 },
    });
    expect(result.runs).toHaveLength(1);
    const [run] = result.runs;
    expect(run.workers).toBe(1);
    expect(run.frames).toBe(15);
    expect(run.framesPerSecond).toBeGreaterThan(0);
    expect(run.wallMs).toBeGreaterThanOrEqual(run.captureMs);
    // Node alone is far below this; with its browser the tree is well above.
    expect(run.peakMemoryBytes).toBeGreaterThan(150 * 1024 * 1024);
  });

  it("removes its temporary renders", async () => {
    expect(await readdir(scratch)).toEqual([]);
  });

  it("refuses a bad --workers list before rendering", async () => {
    const bad = await runCli(["benchmark", project.dir, "--workers", "1,9"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --workers must be a comma-separated list of integers from 1 to 8/);
  });
});
