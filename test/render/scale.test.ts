/**
 * --scale: the page is laid out at the composition's size and drawn at that many device pixels per
 * CSS pixel, so the output is the composition's size times the factor, its content in place, in
 * every format, with several workers, in BeginFrame and in screenshot capture alike; text drawn at
 * 2 is sharper than text drawn at 1 and enlarged; a video in the composition shows its source's
 * own detail at the scaled size.
 */
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { decodeFrame, ffprobe, meanAbsoluteDifference, parsePamStream, pixel, videoStream, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createCacheDir } from "../support/test-media.js";

const execFileAsync = promisify(execFile);

/** A red box at (100, 60), 100x60 CSS pixels, on nothing: transparent around it. */
const BOX = compositionHtml({
  id: "box",
  duration: 0.3,
  css: `#box { position: absolute; left: 100px; top: 60px; width: 100px; height: 60px; background: #ff0000; }`,
  body: `<div id="box"></div>`,
});

/**
 * Black text on white, whose stems of l and I are vertical edges, above a 640x180 source of
 * one-pixel black and white columns shown in the 320x90 box below it: one render holds both.
 */
const STRIPES_SOURCE = "stripes.mp4";
const DETAIL = compositionHtml({
  id: "detail",
  duration: 0.2,
  backdrop: "#ffffff",
  css: `p { position: absolute; left: 10px; top: 40px; font: 32px sans-serif; color: #000000; white-space: nowrap; }
  video { position: absolute; left: 0; top: 90px; width: 320px; height: 90px; }`,
  body: `<p>lIlIlIlIlIlIlIlI Hill</p>
<video src="${STRIPES_SOURCE}" data-start="0" data-duration="0.2" muted></video>`,
});

const FORMATS = {
  mp4: (name: string) => `${name}.mp4`,
  webm: (name: string) => `${name}.webm`,
  mov: (name: string) => `${name}.mov`,
  gif: (name: string) => `${name}.gif`,
  "png-sequence": (name: string) => name,
} as const;
type Format = keyof typeof FORMATS;

/** Per format: at 2 with two workers (each worker's page drawn at 2), and at 0.5 with one. */
const SIZED = (Object.keys(FORMATS) as Format[]).flatMap((format) => [
  { format, scale: 2, workers: 2, output: FORMATS[format](`${format}-2x`) },
  { format, scale: 0.5, workers: 1, output: FORMATS[format](`${format}-half`) },
]);

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const results = new Map<string, CliResult>();

const run = (key: string, args: string[]) => async () => {
  results.set(key, await render([...args], { env: cache.env }));
};

beforeAll(async () => {
  project = await createProject({ "box.html": BOX, "detail.html": DETAIL }, { prefix: "compose-scale-" });
  cache = await createCacheDir();
  await execFileAsync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "color=black:size=640x180:rate=30:duration=0.5,format=gray,geq=lum='255*mod(X,2)'",
    "-c:v",
    "libx264",
    "-qp",
    "0",
    "-pix_fmt",
    "yuv420p",
    project.path(STRIPES_SOURCE),
  ]);
  await limited(2, [
    ...SIZED.map(({ format, scale, workers, output }) =>
      run(output, [project.path("box.html"), "--format", format, "--scale", String(scale), "--workers", String(workers), "--output", project.path(output)]),
    ),
    run("quarter", [project.path("box.html"), "--format", "png-sequence", "--scale", "0.25", "--workers", "1", "--output", project.path("quarter")]),
    run("detail 1x", [project.path("detail.html"), "--frame", "3", "--output", project.path("detail-1x.png")]),
    run("detail 2x", [project.path("detail.html"), "--frame", "3", "--scale", "2", "--output", project.path("detail-2x.png")]),
  ]);
  // Screenshot capture, the fallback for browsers without BeginFrame control, scales alike.
  results.set(
    "detail 2x, screenshots",
    await render([project.path("detail.html"), "--frame", "3", "--scale", "2", "--output", project.path("detail-2x-screenshots.png")], {
      env: { ...cache.env, COMPOSE_CAPTURE_MODE: "screenshot" },
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

function expectRendered(key: string): void {
  const result = results.get(key)!;
  expect(result.code, `${key}: ${result.stderr}`).toBe(0);
}

/** The first frame of an output: its first PNG for a png-sequence. */
function firstFrame(format: Format, output: string): Promise<Frame> {
  if (format === "png-sequence") return decodeFrame(project.path(output, "frame_000000.png"));
  return decodeFrame(project.path(output), 0, { vp9Alpha: format === "webm" });
}

const isRed = (frame: Frame, x: number, y: number) => {
  const [r, g, b] = pixel(frame, x, y);
  return r > 200 && g < 60 && b < 60;
};

describe.each(SIZED)("$format at --scale $scale with $workers worker(s)", ({ format, scale, output }) => {
  it(`is ${320 * scale}x${180 * scale}, every frame there, the box where the page put it at that scale`, async () => {
    expectRendered(output);
    const path = project.path(output);
    if (format === "png-sequence") {
      expect((await readdir(path)).length).toBe(9);
    } else {
      const video = videoStream(await ffprobe(path, { countFrames: true }));
      expect([video.width, video.height, video.nb_read_frames]).toEqual([320 * scale, 180 * scale, "9"]);
    }
    const frame = await firstFrame(format, output);
    expect([frame.width, frame.height]).toEqual([320 * scale, 180 * scale]);
    // Inside the box's corners, and just outside its left and top edges.
    expect(isRed(frame, Math.round(104 * scale), Math.round(64 * scale))).toBe(true);
    expect(isRed(frame, Math.round(196 * scale), Math.round(116 * scale))).toBe(true);
    expect(isRed(frame, Math.round(96 * scale), Math.round(64 * scale))).toBe(false);
    expect(isRed(frame, Math.round(104 * scale), Math.round(56 * scale))).toBe(false);
  });
});

describe("below the smallest scale the browser draws at", () => {
  it("--scale 0.25 is drawn at 0.5 and reduced: 80x45, the box in place, its edges not darkened by the transparency around it", async () => {
    expectRendered("quarter");
    const frame = await decodeFrame(project.path("quarter", "frame_000000.png"));
    expect([frame.width, frame.height]).toEqual([80, 45]);
    expect(pixel(frame, 37, 22)).toEqual([255, 0, 0, 255]);
    expect(pixel(frame, 2, 2)[3]).toBe(0);
    // The box spans 25-50 x 15-30: every pixel of its edge keeps its red, whatever its coverage.
    for (const [x, y] of [
      [25, 22],
      [49, 22],
      [37, 15],
      [37, 29],
    ] as const)
      expect(pixel(frame, x, y).slice(0, 3)).toEqual([255, 0, 0]);
  });
});

/**
 * How sharp the vertical edges of a row of text are: the mean number of pixels an edge takes to go
 * from paper to ink, counting the pixels between 10% and 90% of the way (the 10-90% rise width),
 * over every edge on rows through the middle of the glyphs that goes the whole way.
 */
function edgeWidth(frame: Frame, rows: number[]): number {
  const widths: number[] = [];
  for (const y of rows) {
    // The side of the last pixel that was plainly paper or ink, and where it was.
    let side: "paper" | "ink" | undefined;
    let last = 0;
    for (let x = 0; x < frame.width; x++) {
      const ink = 1 - pixel(frame, x, y)[0] / 255;
      const now = ink <= 0.1 ? "paper" : ink >= 0.9 ? "ink" : undefined;
      if (now === undefined) continue;
      if (side !== undefined && now !== side) widths.push(x - last - 1);
      side = now;
      last = x;
    }
  }
  if (widths.length < 20) throw new Error(`only ${widths.length} edges found`);
  return widths.reduce((sum, width) => sum + width, 0) / widths.length;
}

/** A PNG enlarged twice by ffmpeg's bicubic scaler, as a player enlarges a 1x render to fill a 2x screen. */
async function enlarged(file: string): Promise<Frame> {
  const { stdout } = await execFileAsync(
    "ffmpeg",
    ["-v", "error", "-i", file, "-vf", "scale=iw*2:ih*2:flags=bicubic", "-pix_fmt", "rgba", "-c:v", "pam", "-f", "image2pipe", "pipe:1"],
    {
      encoding: "buffer",
      maxBuffer: 1 << 24,
    },
  );
  return parsePamStream(stdout)[0]!;
}

describe("text drawn at the scale", () => {
  /** Rows through the stems of the glyphs: y 50-60 CSS pixels. */
  const rows2x = Array.from({ length: 20 }, (_, i) => 100 + i);

  // Measured: 0.77 px at 2, 2.48 px drawn at 1 and enlarged.
  it("has edges at most half as wide as the same text drawn at 1 and enlarged twice", async () => {
    expectRendered("detail 1x");
    expectRendered("detail 2x");
    const sharp = edgeWidth(await decodeFrame(project.path("detail-2x.png")), rows2x);
    const soft = edgeWidth(await enlarged(project.path("detail-1x.png")), rows2x);
    expect(sharp, `2x: ${sharp.toFixed(2)} px, 1x enlarged: ${soft.toFixed(2)} px`).toBeLessThanOrEqual(soft / 2);
  });

  it("is drawn the same in screenshot capture as in BeginFrame capture", async () => {
    expectRendered("detail 2x");
    expectRendered("detail 2x, screenshots");
    const [beginFrame, screenshot] = await Promise.all([decodeFrame(project.path("detail-2x.png")), decodeFrame(project.path("detail-2x-screenshots.png"))]);
    expect([screenshot.width, screenshot.height]).toEqual([640, 360]);
    // Measured: identical.
    expect(meanAbsoluteDifference(beginFrame, screenshot)).toBeLessThan(0.5);
  });
});

describe("a video in a scaled composition", () => {
  /** The mean difference between neighbouring columns along the middle row of the video's box: 255 for the source's stripes, near 0 once they are blurred to grey. */
  function columnContrast(frame: Frame): number {
    const y = Math.floor((frame.height * 3) / 4);
    let sum = 0;
    for (let x = 1; x < frame.width; x++) sum += Math.abs(pixel(frame, x, y)[0] - pixel(frame, x - 1, y)[0]);
    return sum / (frame.width - 1);
  }

  it("shows the source's own one-pixel detail at 2, which a render at 1 cannot hold", async () => {
    expectRendered("detail 1x");
    expectRendered("detail 2x");
    const [at1, at2] = await Promise.all([decodeFrame(project.path("detail-1x.png")), decodeFrame(project.path("detail-2x.png"))]);
    expect([at2.width, at2.height]).toEqual([640, 360]);
    expect(columnContrast(at2)).toBeGreaterThan(200);
    expect(columnContrast(at1)).toBeLessThan(50);
  });
});
