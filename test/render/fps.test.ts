/**
 * --fps 24 / 30 / 60: the output has round(duration x fps) frames at that rate, and lasts
 * frames / fps seconds. The 0.7 s composition makes 24 fps round (16.8 -> 17).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { ffprobe, videoStream, type ProbeResult } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const DURATION = 0.7;
const CASES = [
  { fps: 24, frames: 17 },
  { fps: 30, frames: 21 },
  { fps: 60, frames: 42 },
] as const;

const html = compositionHtml({
  id: "rates",
  duration: DURATION,
  backdrop: "#203040",
  css: `#box { position: absolute; left: 0; top: 60px; width: 40px; height: 40px; background: #ffcc00; animation: go 0.7s linear both; }
        @keyframes go { to { transform: translateX(280px); } }`,
  body: `<div id="box"></div>`,
});

let project: TempProject;
const runs = new Map<number, { result: CliResult; probe?: ProbeResult }>();

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  await limited(
    2,
    CASES.map(({ fps }) => async () => {
      const output = project.path(`out-${fps}.mp4`);
      const result = await render([project.dir, "--fps", String(fps), "--quality", "draft", "--workers", "1", "--output", output]);
      runs.set(fps, { result, probe: result.code === 0 ? await ffprobe(output, { countFrames: true }) : undefined });
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

describe("frame rate", () => {
  for (const { fps, frames } of CASES) {
    it(`--fps ${fps}: ${frames} frames (round(${DURATION} x ${fps})) at ${fps}/1, lasting ${(frames / fps).toFixed(3)} s`, () => {
      const { result, probe } = runs.get(fps)!;
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const video = videoStream(probe!);
      expect(Number(video.nb_read_frames)).toBe(frames);
      expect(video.r_frame_rate).toBe(`${fps}/1`);
      expect(video.avg_frame_rate).toBe(`${fps}/1`);
      expect(Number(video.duration)).toBeCloseTo(frames / fps, 2);
      expect(Number(probe!.format.duration)).toBeCloseTo(frames / fps, 2);
    });
  }
});
