/**
 * A page that looks timeless when it becomes ready and starts building state only once seeked
 * (here an onSeek handler starts a requestAnimationFrame loop at 0.2 s) is still one history:
 * a worker that started after frame 0 loads it again and replays up to where it stands.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { boxX, decodeAllFrames, hex } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FRAMES = 18;
const late = compositionHtml({
  id: "late",
  duration: FRAMES / 30,
  backdrop: "#000000",
  css: `#box { position: absolute; left: 0; top: 80px; width: 12px; height: 20px; background: #ffffff; }
        #css { position: absolute; left: 0; top: 20px; width: 12px; height: 20px; background: #00ff00; animation: go 0.6s linear both; }
        @keyframes go { to { transform: translateX(240px); } }`,
  body: `<div id="box"></div><div id="css"></div>`,
  after: `<script>
    let started = false;
    let steps = 0;
    __compose.onSeek((t) => {
      if (t < 0.2 || started) return;
      started = true;
      requestAnimationFrame(function step() {
        steps++;
        document.getElementById("box").style.transform = "translateX(" + 10 * steps + "px)";
        requestAnimationFrame(step);
      });
    });
  </script>`,
});
/** Only a CSS animation: its state is a function of time. */
const timeless = compositionHtml({
  id: "timeless",
  duration: FRAMES / 30,
  backdrop: "#000000",
  css: `#css { position: absolute; left: 0; top: 20px; width: 12px; height: 20px; background: #00ff00; animation: go 0.6s linear both; }
        @keyframes go { to { transform: translateX(240px); } }`,
  body: `<div id="css"></div>`,
});

let project: TempProject;
const results = new Map<string, CliResult>();
const RUNS = {
  "late-w1": ["late.html", "1"],
  "late-w3": ["late.html", "3"],
  "timeless-w1": ["timeless.html", "1"],
  "timeless-w2": ["timeless.html", "2"],
} as const;

beforeAll(async () => {
  project = await createProject({ "late.html": late, "timeless.html": timeless });
  await limited(
    2,
    Object.entries(RUNS).map(([name, [file, workers]]) => async () => {
      results.set(name, await render([project.path(file), "--format", "png-sequence", "--workers", workers, "--output", project.path(name)]));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

async function frames(name: keyof typeof RUNS): Promise<Buffer[]> {
  const result = results.get(name)!;
  expect(result.stderr, `${name} stderr`).toBe("");
  expect(result.code, `${name} exit code`).toBe(0);
  const names = (await readdir(project.path(name))).filter((file) => file.endsWith(".png")).sort();
  return Promise.all(names.map((file) => readFile(join(project.path(name), file))));
}

describe("history found once seeked", () => {
  it("gives the frames of a page played from 0 with --workers 3", async () => {
    const one = await frames("late-w1");
    const three = await frames("late-w3");
    expect(three).toHaveLength(FRAMES);
    expect(
      one.flatMap((bytes, n) => (three[n]!.equals(bytes) ? [] : [n])),
      "frames that differ",
    ).toEqual([]);
    const decoded = await decodeAllFrames(join(project.path("late-w3"), "frame_%06d.png"));
    // The loop starts at frame 6 (0.2 s) and first runs at frame 7.
    expect(decoded.map((frame) => boxX(frame, 90, hex("#ffffff")))).toEqual(Array.from({ length: FRAMES }, (_, n) => 10 * Math.max(0, n - 6)));
  });

  it("says how many frames it replayed", () => {
    expect(results.get("late-w1")!.stdout).not.toMatch(/Replayed/);
    // The second worker replays frames 0-5, the third 0-11.
    expect(results.get("late-w3")!.stdout).toMatch(/^Replayed 18 frames of history in [\d.]+ s/m);
  });

  it("replays nothing for a composition whose state is a function of time", async () => {
    const one = await frames("timeless-w1");
    const two = await frames("timeless-w2");
    expect(one.flatMap((bytes, n) => (two[n]!.equals(bytes) ? [] : [n]))).toEqual([]);
    expect(results.get("timeless-w2")!.stdout).not.toMatch(/Replayed/);
  });
});
