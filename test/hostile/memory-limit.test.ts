/**
 * A page's memory is bounded, not its script heap alone: typed arrays and canvases count too. A
 * page that allocates 256 MiB of typed arrays at every frame, or draws a 64 MiB canvas four at a
 * time, fails as limit-exceeded naming the limit once its browser holds more than --max-memory,
 * and the memory its browser held (sampled here from /proc while it ran) stayed under the limit
 * plus one step of allocation. A composition that needs little renders under a low limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserMemory, lines, startCli, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const MiB = 1024 ** 2;
const LIMIT = 1024 * MiB;
/** One frame's allocation, and the time the watch takes to see it: what the browser may hold past the limit. */
const MARGIN = 512 * MiB;

const grows = (perFrame: string) =>
  compositionHtml({
    id: "grows",
    duration: 1,
    backdrop: "#ffffff",
    after: `<script>window.kept = []; __compose.onSeek(() => { if (window.kept.length < 64) ${perFrame} });</script>`,
  });

let project: TempProject;
const runs = new Map<string, CliResult & { peak: number }>();

/** Renders `composition` with `flags` as the run `name`, sampling its browsers' memory until it ends. */
async function renderSampled(name: string, composition: string, flags: string[]): Promise<void> {
  const run = startCli(["render", project.path(`${composition}.html`), "--output", project.path("out", `${name}.mp4`), "--workers", "1", "--json", ...flags], {
    timeoutMs: 120_000,
  });
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, browserMemory(run.pid));
  }, 50);
  const result = await run.result;
  clearInterval(sampler);
  runs.set(name, { ...result, peak });
}

beforeAll(async () => {
  project = await createProject({
    "typed-arrays.html": grows("{ const bytes = new Uint8Array(256 * 1024 * 1024); bytes.fill(1); window.kept.push(bytes); }"),
    "canvases.html": grows(
      'for (let i = 0; i < 4; i++) { const canvas = document.createElement("canvas"); canvas.width = 4096; canvas.height = 4096; const context = canvas.getContext("2d"); context.fillStyle = "red"; context.fillRect(0, 0, 4096, 4096); context.getImageData(0, 0, 1, 1); window.kept.push(canvas); }',
    ),
    "light.html": compositionHtml({ id: "light", duration: 0.5, backdrop: "#204080", body: `<p style="font:30px sans-serif;color:#fff">little</p>` }),
  });
  // One at a time: each may take its limit's worth of the machine.
  await renderSampled("typed-arrays", "typed-arrays", ["--max-memory", "1G"]);
  await renderSampled("canvases", "canvases", ["--max-memory", "1G"]);
  await renderSampled("light", "light", ["--max-memory", "512M"]);
  await renderSampled("too low", "light", ["--max-memory", "100M"]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

function failure(name: string): { code: string; message: string } {
  const run = runs.get(name)!;
  expect(run.code, run.stderr).toBe(1);
  return JSON.parse(lines(run.stdout).at(-1)!);
}

describe("--max-memory", () => {
  it.each(["typed-arrays", "canvases"])(
    "%s: the render fails as limit-exceeded naming the limit, and the browser held no more than the limit and one step",
    (name) => {
      const { code, message } = failure(name);
      expect(code).toBe("limit-exceeded");
      expect(message).toMatch(
        /^the page held [\d.]+G of memory at frame \d+ \([\d.]+ s\), over the limit of 1G \(.*\): use less, or raise the limit with --max-memory$/,
      );
      const { peak } = runs.get(name)!;
      // The sampler saw the page grow: it measured what the limit bounds.
      expect(peak).toBeGreaterThan(LIMIT / 2);
      expect(peak).toBeLessThan(LIMIT + MARGIN);
    },
  );

  it("a composition that needs little renders under a low limit", () => {
    const run = runs.get("light")!;
    expect(run.code, run.stderr).toBe(0);
    expect(run.peak).toBeLessThan(512 * MiB);
  });

  it("under 256M is a usage error", () => {
    const run = runs.get("too low")!;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--max-memory must be a size such as 2G or 512M, at least 256M (got 100M)");
  });
});
