/**
 * Clip visibility windows: an element with data-start / data-duration is drawn exactly in
 * [start, start + duration), relative starts count from the end of the referenced clip, and a
 * hidden clip hides its whole subtree.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodeAllFrames, hex, isColour, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FPS = 30;
const BOX = "position: absolute; top: 20px; width: 40px; height: 40px;";

const html = compositionHtml({
  id: "clips",
  duration: 1,
  backdrop: "#000000",
  css: `
    #window { ${BOX} left: 10px; background: #ff0000; }
    #intro { ${BOX} left: 70px; background: #00ff00; }
    #after-intro { ${BOX} left: 130px; background: #0000ff; }
    #parent { position: absolute; left: 0; top: 100px; width: 320px; height: 60px; }
    #child { ${BOX} left: 190px; background: #ffff00; }
    #always { ${BOX} left: 250px; background: #ffffff; }
  `,
  body: `
    <div id="window" data-start="0.2" data-duration="0.3" data-track-index="1"></div>
    <div id="intro" data-start="0" data-duration="0.3" data-track-index="2"></div>
    <div id="after-intro" data-start="intro + 0.2" data-duration="0.2" data-track-index="2"></div>
    <div id="parent" data-start="0.6" data-duration="0.2" data-track-index="3"><div id="child"></div></div>
    <div id="always"></div>
  `,
});

let project: TempProject;
let result: CliResult;
let frames: Frame[];

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  result = await render([project.dir, "--format", "png-sequence", "--fps", String(FPS), "--workers", "1", "--output", project.path("out")]);
  if (result.code === 0) frames = await decodeAllFrames(project.path("out/frame_%06d.png"));
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

/** For each frame, whether the box at (x, y) shows its colour (true) or the black background (false). */
function visibility(x: number, y: number, colour: string): boolean[] {
  return frames.map((frame, n) => {
    if (isColour(frame, x, y, hex(colour))) return true;
    if (isColour(frame, x, y, [0, 0, 0])) return false;
    throw new Error(`frame ${n}: pixel (${x}, ${y}) is neither ${colour} nor the background`);
  });
}

/** Frames n whose time n / 30 lies in [start, end). */
function framesIn(start: number, end: number): boolean[] {
  return frames.map((_, n) => n / FPS >= start - 1e-9 && n / FPS < end - 1e-9);
}

describe("clip visibility", () => {
  it("renders 30 frames", () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(frames).toHaveLength(30);
  });

  it("data-start=0.2 data-duration=0.3: visible in frames 6-14, absent before 0.2 s and from 0.5 s on", () => {
    const seen = visibility(30, 40, "#ff0000");
    expect(seen).toEqual(framesIn(0.2, 0.5));
    expect(seen.slice(5, 7)).toEqual([false, true]);
    expect(seen.slice(14, 16)).toEqual([true, false]);
  });

  it("data-start=0 data-duration=0.3: visible in frames 0-8", () => {
    expect(visibility(90, 40, "#00ff00")).toEqual(framesIn(0, 0.3));
  });

  it('relative start "intro + 0.2" (0.2 s after the END of #intro): visible in [0.5, 0.7)', () => {
    const seen = visibility(150, 40, "#0000ff");
    expect(seen).toEqual(framesIn(0.5, 0.7));
    expect(seen.slice(14, 16)).toEqual([false, true]);
    expect(seen.slice(20, 22)).toEqual([true, false]);
  });

  it("a hidden clip hides its children: the child of a [0.6, 0.8) clip shows only then", () => {
    const seen = visibility(210, 140, "#ffff00");
    expect(seen).toEqual(framesIn(0.6, 0.8));
    expect(seen.slice(17, 19)).toEqual([false, true]);
    expect(seen.slice(23, 25)).toEqual([true, false]);
  });

  it("an element without data-start is visible in every frame", () => {
    expect(visibility(270, 40, "#ffffff").every(Boolean)).toBe(true);
  });
});
