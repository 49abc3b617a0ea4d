/**
 * Rendering part of a composition and choosing the format from the output: `--frame` and
 * `--time` write one PNG image of that frame, `--frames a-b` renders a range, and the output's
 * extension (or a directory) chooses the format when --format is absent.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { boxX, decodeAllFrames, decodeFrame, ffprobe, hex, videoStream } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/** 0.5 s: a white box moves 20 px per frame, so a frame's number shows as its x. */
const html = compositionHtml({
  id: "frames",
  duration: 0.5,
  backdrop: "#000000",
  css: `#box { position: absolute; left: 0; top: 60px; width: 10px; height: 40px; background: #ffffff; animation: go 0.5s linear both; }
        @keyframes go { to { transform: translateX(300px); } }`,
  body: `<div id="box"></div>`,
});
const xOfFrame = (frame: number) => 20 * frame;

const RUNS: Record<string, string[]> = {
  frame: ["--frame", "9", "-o", "nine.png"],
  time: ["--time", "0.2"],
  frames: ["--frames", "3-7", "-o", "part.mp4", "--crf", "0"],
  framesToEnd: ["--frames", "12-", "--format", "png-sequence", "-o", "tail"],
  webm: ["-o", "clip.webm"],
  mov: ["-o", "clip.mov"],
  directory: ["-o", "sequence/"],
  pastTheEnd: ["--frame", "15", "-o", "late.png"],
};

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  await limited(
    2,
    Object.entries(RUNS).map(([name, args]) => async () => {
      results.set(name, await render([project.dir, ...args], { cwd: project.dir }));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function succeeded(name: string): CliResult {
  const result = results.get(name)!;
  expect(result.code, `${name}: ${result.stderr}`).toBe(0);
  return result;
}

describe("one frame, a range of frames", () => {
  it("--frame 9 writes frame 9 as one PNG image", async () => {
    expect(succeeded("frame").stdout).toMatch(/Output: nine\.png/);
    const probe = await ffprobe(project.path("nine.png"));
    expect(videoStream(probe).codec_name).toBe("png");
    expect(boxX(await decodeFrame(project.path("nine.png")), 80, hex("#ffffff"))).toBe(xOfFrame(9));
  });

  it("--time 0.2 writes frame 6 under renders/<name>-frame-6.png", async () => {
    succeeded("time");
    const file = project.path("renders", `${project.dir.split("/").pop()}-frame-6.png`);
    expect(boxX(await decodeFrame(file), 80, hex("#ffffff"))).toBe(xOfFrame(6));
  });

  it("--frames 3-7 renders those five frames", async () => {
    succeeded("frames");
    const frames = await decodeAllFrames(project.path("part.mp4"));
    expect(frames.map((frame) => boxX(frame, 80, hex("#ffffff")))).toEqual([3, 4, 5, 6, 7].map(xOfFrame));
    expect(Number((await ffprobe(project.path("part.mp4"))).format.duration)).toBeCloseTo(5 / 30, 2);
  });

  it("--frames 12- runs to the last frame", async () => {
    succeeded("framesToEnd");
    const frames = await decodeAllFrames(join(project.path("tail"), "frame_%06d.png"));
    expect(frames.map((frame) => boxX(frame, 80, hex("#ffffff")))).toEqual([12, 13, 14].map(xOfFrame));
  });

  it("refuses a frame past the end, naming the last frame, and writes nothing", async () => {
    const result = results.get("pastTheEnd")!;
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("error: frame 15 is past the composition's last frame, 14 (0.467 s at 30 fps)");
    await expect(stat(project.path("late.png"))).rejects.toThrow();
  });
});

describe("the output chooses the format", () => {
  it.each([
    ["webm", "clip.webm", "vp9"],
    ["mov", "clip.mov", "prores"],
  ])("-o %s without --format writes %s", async (name, file, codec) => {
    succeeded(name);
    expect(videoStream(await ffprobe(project.path(file))).codec_name).toBe(codec);
  });

  it("-o a directory writes a png-sequence", async () => {
    succeeded("directory");
    expect((await stat(project.path("sequence", "frame_000014.png"))).isFile()).toBe(true);
  });
});
