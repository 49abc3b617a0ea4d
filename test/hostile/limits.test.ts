/**
 * Limits with defaults that can be raised: frames per render, width and height (of the output,
 * the composition's at --scale) are refused before any browser starts (COMPOSE_BROWSER points at
 * nothing here), with one line naming the value, the limit and the flag that raises it; so are a
 * scale that makes an odd size for a 4:2:0 format or a fraction of a pixel. Popups are refused by
 * the browser.
 */
import { readFile } from "node:fs/promises";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, lines, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const NO_BROWSER = { COMPOSE_BROWSER: "/nonexistent/chromium-headless-shell" };

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject({
    "billion/index.html": compositionHtml({ id: "billion", duration: 1e9 }),
    "wide/index.html": compositionHtml({ id: "wide", width: 100000, duration: 0.2 }),
    "short/index.html": compositionHtml({ id: "short", duration: 0.5, backdrop: "#000000" }),
    "popup/index.html": compositionHtml({
      id: "popup",
      duration: 0.1,
      body: `<div id="mark" style="position:absolute;inset:0"></div>`,
      after: `<script>document.getElementById("mark").style.background = window.open("about:blank") ? "#ff0000" : "#00ff00";</script>`,
    }),
  });
  const out = (name: string) => project.path("out", name);
  await limited(3, [
    async () => results.set("billion", await render([project.path("billion"), "--output", out("b.mp4")], { env: NO_BROWSER })),
    async () => results.set("wide", await render([project.path("wide"), "--output", out("w.mp4")], { env: NO_BROWSER })),
    async () => results.set("max-frames 10", await render([project.path("short"), "--output", out("s.mp4"), "--max-frames", "10"], { env: NO_BROWSER })),
    async () => results.set("max-frames 15", await render([project.path("short"), "--output", out("s15.mp4"), "--max-frames", "15", "--workers", "1"])),
    async () => results.set("max-frames zero", await render([project.path("short"), "--output", out("s0.mp4"), "--max-frames", "0"])),
    async () => results.set("popup", await render([project.path("popup"), "--output", out("popup"), "--format", "png-sequence", "--workers", "1"])),
    async () =>
      results.set(
        "scale 2 over the width",
        await render([project.path("short"), "--output", out("s2.mp4"), "--scale", "2", "--max-width", "400"], { env: NO_BROWSER }),
      ),
    async () =>
      results.set(
        "scale 0.5 within the width",
        await render([project.path("short"), "--output", out("s05.mp4"), "--scale", "0.5", "--max-width", "200"], { env: NO_BROWSER }),
      ),
    async () =>
      results.set("scale 0.25 odd for mp4", await render([project.path("short"), "--output", out("s025.mp4"), "--scale", "0.25"], { env: NO_BROWSER })),
    async () => results.set("scale 0.3 a fraction", await render([project.path("short"), "--output", out("s03.mp4"), "--scale", "0.33"], { env: NO_BROWSER })),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

function refusal(name: string, exitCode = 1): string {
  const result = results.get(name)!;
  expect(result.code, result.stderr).toBe(exitCode);
  const errorLines = lines(result.stderr);
  expect(errorLines, result.stderr).toHaveLength(1);
  return errorLines[0]!;
}

describe("limits", () => {
  it("data-duration=1e9: refused before a browser starts, naming the frames, the limit and --max-frames", () => {
    expect(refusal("billion")).toMatch(/billion lasts 1000000000 s, 30000000000 frames at 30 fps, over the limit of 108000 frames: .*--max-frames/);
  });

  it("data-width=100000: refused before a browser starts, naming the size, the limit and the flags", () => {
    expect(refusal("wide")).toMatch(/wide is 100000x180 px, over the limit of 7680x4320: .*--max-width and --max-height/);
  });

  it("--max-width applies to the scaled size: 320x180 at --scale 2 is over 400, at --scale 0.5 within 200", () => {
    expect(refusal("scale 2 over the width")).toMatch(
      /short renders at 640x360 px \(320x180 at --scale 2\), over the limit of 400x4320: .*lower the scale.*--max-width and --max-height/,
    );
    // Past the limits, the render goes on to start a browser, which is not there.
    expect(refusal("scale 0.5 within the width")).toMatch(/chromium-headless-shell/);
  });

  it("a scale that makes an odd size for mp4, or a fraction of a pixel, is refused naming the sizes", () => {
    expect(refusal("scale 0.25 odd for mp4")).toMatch(
      /\[odd-size\] composition "short" renders at 80x45 with --scale 0.25: mp4 and webm need an even width and height, so change --scale, data-width or data-height or render with --format mov, png-sequence or gif/,
    );
    expect(refusal("scale 0.3 a fraction")).toMatch(/short is 320x180 px, which --scale 0.33 makes 105.6x59.4: choose a scale that makes whole pixels of both/);
  });

  it("--max-frames lowers the limit, and a render within it runs", () => {
    expect(refusal("max-frames 10")).toMatch(/15 frames at 30 fps, over the limit of 10 frames/);
    expect(results.get("max-frames 15")!.code, results.get("max-frames 15")!.stderr).toBe(0);
  });

  it("--max-frames 0 is a usage error", () => {
    expect(refusal("max-frames zero", 2)).toMatch(/--max-frames must be a positive whole number \(got 0\)/);
  });

  it("window.open gets no window: the page paints green when its popup was refused", async () => {
    expect(results.get("popup")!.code, results.get("popup")!.stderr).toBe(0);
    const frame = PNG.sync.read(await readFile(project.path("out", "popup", "frame_000000.png")));
    expect([...frame.data.subarray(0, 4)]).toEqual([0, 255, 0, 255]);
  });
});
