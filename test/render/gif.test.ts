/**
 * GIF output as users get it and as viewers see it: the frames at the render's fps (delays in
 * whole hundredths that keep the rate on average, the total the composition's length), one
 * palette for the render within a stated error of the lossless frames, no larger than ffmpeg's own
 * two-pass palette GIF of the same frames, the same with two workers, the loop count asked for,
 * transparency where the page draws nothing, and no sound (with a warning). Viewers: each GIF
 * shown in an <img> and decoded by WebCodecs' ImageDecoder in Debian's chromium and firefox-esr,
 * which both have it, for its frames, their timing, its loop count and the frame at 1 s.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedGifs, PLAYERS, type DecodedGif, type PlayerName } from "../support/browser-playback.js";
import { limited, lines, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { decodedFrameMd5s, decodeFrame, ffprobe, gifTiming, pixel, videoStream, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { generateMedia, MEDIA_FILES } from "../support/test-media.js";

const execFileAsync = promisify(execFile);

/** Text, a gradient and a box that moves: what a palette has to share out. 1.2 s, so that it has a frame at 1 s. */
const CARD = compositionHtml({
  id: "card",
  duration: 1.2,
  backdrop: "linear-gradient(90deg, #1e3a8a, #9333ea)",
  css: `#box { position: absolute; top: 30px; width: 60px; height: 60px; border-radius: 10px; background: #f59e0b; animation: move 1.2s linear both; }
  @keyframes move { from { left: 0px; } to { left: 240px; } }
  h1 { position: absolute; left: 12px; top: 112px; color: #ffffff; font: bold 30px sans-serif; }`,
  body: `<div id="box"></div><h1>Quarterly</h1>`,
});

/** 0.5 s of a box moving over white. */
const SHORT = compositionHtml({
  id: "short",
  duration: 0.5,
  backdrop: "#ffffff",
  css: `#box { position: absolute; top: 60px; width: 40px; height: 40px; background: #2563eb; animation: move 0.5s linear both; }
  @keyframes move { from { left: 0px; } to { left: 200px; } }`,
  body: `<div id="box"></div>`,
});

/** A red box on nothing, transparent around it, and a sound. */
const CLEAR = compositionHtml({
  id: "clear",
  duration: 0.5,
  css: `#box { position: absolute; left: 100px; top: 60px; width: 100px; height: 60px; background: #ff0000; }`,
  body: `<div id="box"></div>
<audio src="${MEDIA_FILES.tone}" data-start="0" data-duration="0.5"></audio>`,
});

/**
 * Flags that bear on different things of a GIF (its timing, its loop count, its transparency, its
 * sound) share a render: each check reads its own part of the file.
 */
const RENDERS = {
  card: { file: "card.html", output: "card.gif", args: ["--workers", "1"] },
  "card, two workers": { file: "card.html", output: "card-w2.gif", args: ["--workers", "2"] },
  "card, lossless": { file: "card.html", output: "card-frames", args: ["--format", "png-sequence", "--workers", "1"] },
  "repeated 3 times, at 24 fps": { file: "short.html", output: "loop3-24fps.gif", args: ["--gif-loop", "3", "--fps", "24"] },
  "played once, transparent, with audio": { file: "clear.html", output: "once-clear.gif", args: ["--gif-loop", "-1", "--json"] },
} as const;
type RenderName = keyof typeof RENDERS;

/** The frame the viewer check compares: the page's frame at 1 s. */
const AT = 1;
const FPS = 30;

/**
 * The palette's error at 1 s against the lossless frame, per RGB channel value: the mean absolute
 * difference over every pixel, and the largest difference of any channel at any pixel. Measured
 * at 0.20 and 16, the same in ffmpeg's decode and both browsers' (docs/fidelity.md): a gradient
 * shared out among 255 colours and dithered, the largest errors on the text's anti-aliased edges.
 */
const MEAN_ERROR_BOUND = 0.5;
const MAX_ERROR_BOUND = 32;

const PLAYER_NAMES = (Object.keys(PLAYERS) as PlayerName[]).filter((player) => existsSync(PLAYERS[player]));

let project: TempProject;
const results = {} as Record<RenderName, CliResult>;
let lossless: Frame;
const decoded = {} as Record<PlayerName, Map<string, DecodedGif>>;

const output = (name: RenderName) => project.path(RENDERS[name].output);

beforeAll(async () => {
  project = await createProject({ "card.html": CARD, "short.html": SHORT, "clear.html": CLEAR }, { prefix: "compose-gif-" });
  await generateMedia(project.dir, ["tone"]);
  await limited(
    2,
    (Object.keys(RENDERS) as RenderName[]).map((name) => async () => {
      const { file, args } = RENDERS[name];
      results[name] = await render([project.path(file), ...args, "--output", output(name)]);
    }),
  );
  lossless = await decodeFrame(`${output("card, lossless")}/frame_${String(AT * FPS).padStart(6, "0")}.png`);
  const short: RenderName[] = ["repeated 3 times, at 24 fps", "played once, transparent, with audio"];
  for (const player of PLAYER_NAMES) {
    decoded[player] = await decodedGifs(player, new Map([[output("card"), AT], ...short.map((name) => [output(name), 0.25] as const)]));
  }
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function expectRendered(name: RenderName): void {
  expect(results[name].code, `${name}: ${results[name].stderr}`).toBe(0);
}

/** The palette's error against the lossless frame: mean absolute difference per RGB value, and the largest at any pixel. */
function paletteError(rgba: Uint8Array | Buffer): { mean: number; max: number } {
  let sum = 0;
  let max = 0;
  for (let i = 0; i < lossless.data.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      const difference = Math.abs(rgba[i + c]! - lossless.data[i + c]!);
      sum += difference;
      max = Math.max(max, difference);
    }
  }
  return { mean: sum / ((lossless.data.length / 4) * 3), max };
}

describe("a GIF render", () => {
  it("is a 320x180 GIF with every frame at the render's fps, lasting the composition's 1.2 s", async () => {
    expectRendered("card");
    expect(results.card.stderr).toBe("");
    const probe = await ffprobe(output("card"), { countFrames: true });
    const video = videoStream(probe);
    expect([video.codec_name, video.width, video.height, video.nb_read_frames]).toEqual(["gif", 320, 180, "36"]);
    expect(Number(probe.format.duration)).toBeCloseTo(1.2, 2);
    // Frames start at round(n x 100 / 30) hundredths: 3.33 is shown as 3, 4, 3, ...
    const { delays } = gifTiming(await readFile(output("card")));
    expect(delays.slice(0, 6)).toEqual([3, 4, 3, 3, 4, 3]);
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBe(120);
  });

  it("at 24 fps, alternates 4 and 5 hundredths and lasts exactly the composition's 0.5 s", async () => {
    expectRendered("repeated 3 times, at 24 fps");
    const { delays } = gifTiming(await readFile(output("repeated 3 times, at 24 fps")));
    expect(delays).toEqual([4, 4, 5, 4, 4, 4, 4, 4, 5, 4, 4, 4]);
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBe(50);
  });

  it("refuses 60 fps, which a GIF cannot show", async () => {
    const refused = await render([project.path("short.html"), "--fps", "60", "--output", project.path("sixty.gif")]);
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toEqual(["error: --fps must be 24 or 30 for gif (got 60)"]);
  });

  it(`decoded by ffmpeg, its frame at 1 s is the page's within the palette's error (mean <= ${MEAN_ERROR_BOUND}, max <= ${MAX_ERROR_BOUND})`, async () => {
    expectRendered("card");
    expectRendered("card, lossless");
    const error = paletteError((await decodeFrame(output("card"), AT * FPS)).data);
    expect(error.mean, JSON.stringify(error)).toBeLessThanOrEqual(MEAN_ERROR_BOUND);
    expect(error.max, JSON.stringify(error)).toBeLessThanOrEqual(MAX_ERROR_BOUND);
  });

  it("is no larger than ffmpeg's own two-pass palette GIF (palettegen and paletteuse, their defaults) of the same frames", async () => {
    expectRendered("card");
    const frames = [`-framerate`, String(FPS), "-i", `${output("card, lossless")}/frame_%06d.png`];
    const palette = project.path("ffmpeg-palette.png");
    const reference = project.path("ffmpeg.gif");
    await execFileAsync("ffmpeg", ["-v", "error", "-y", ...frames, "-vf", "palettegen", palette]);
    await execFileAsync("ffmpeg", ["-v", "error", "-y", ...frames, "-i", palette, "-lavfi", "paletteuse", reference]);
    const [ours, theirs] = await Promise.all([stat(output("card")), stat(reference)]);
    expect(ours.size, `ours ${ours.size} bytes, ffmpeg's ${theirs.size}`).toBeLessThanOrEqual(theirs.size);
  });

  it("with two workers, each encoding half the frames, has the same frames", async () => {
    expectRendered("card");
    expectRendered("card, two workers");
    expect(await decodedFrameMd5s(output("card, two workers"))).toEqual(await decodedFrameMd5s(output("card")));
  });

  it("carries the loop count asked for in its NETSCAPE2.0 extension: 0 (forever) by default, 3, or none to play once", async () => {
    expectRendered("card");
    expectRendered("repeated 3 times, at 24 fps");
    expectRendered("played once, transparent, with audio");
    expect(gifTiming(await readFile(output("card"))).loop).toBe(0);
    expect(gifTiming(await readFile(output("repeated 3 times, at 24 fps"))).loop).toBe(3);
    const once = await readFile(output("played once, transparent, with audio"));
    expect(gifTiming(once).loop).toBeUndefined();
    expect(once.includes("NETSCAPE2.0")).toBe(false);
  });

  it("is transparent where the page draws nothing, and opaque red inside the box", async () => {
    expectRendered("played once, transparent, with audio");
    const frame = await decodeFrame(output("played once, transparent, with audio"), 7);
    expect(pixel(frame, 5, 5)[3]).toBe(0);
    expect(pixel(frame, 150, 90)).toEqual([255, 0, 0, 255]);
  });

  it("leaves a composition's audio out, with a warning that says GIF has no sound", async () => {
    expectRendered("played once, transparent, with audio");
    const events = lines(results["played once, transparent, with audio"].stdout).map(
      (line) => JSON.parse(line) as { type: string; code?: string; message?: string },
    );
    expect(events.filter((event) => event.type === "warning")).toEqual([
      { type: "warning", code: "audio-left-out", message: "the composition has audio, but gif has no sound: the output is silent" },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finished", format: "gif", frames: 15 });
    expect((await ffprobe(output("played once, transparent, with audio"))).streams.map((stream) => stream.codec_type)).toEqual(["video"]);
  });
});

describe.each(PLAYER_NAMES)("as %s shows it", (player) => {
  const gif = (name: RenderName) => decoded[player].get(output(name))!;

  it("an <img> shows it at its size, and ImageDecoder finds every frame, 1.2 s in all", () => {
    expectRendered("card");
    const card = gif("card");
    expect(card.img).toEqual([320, 180]);
    expect(card.frames).toBe(36);
    expect(card.durations.reduce((sum, duration) => sum + duration, 0)).toBe(1_200_000);
  });

  it(`its frame at 1 s is the page's within the palette's error (mean <= ${MEAN_ERROR_BOUND}, max <= ${MAX_ERROR_BOUND})`, () => {
    expectRendered("card");
    const { shown } = gif("card");
    expect([shown.index, shown.width, shown.height]).toEqual([AT * FPS, 320, 180]);
    const error = paletteError(shown.rgba);
    expect(error.mean, JSON.stringify(error)).toBeLessThanOrEqual(MEAN_ERROR_BOUND);
    expect(error.max, JSON.stringify(error)).toBeLessThanOrEqual(MAX_ERROR_BOUND);
  });

  it("repeats forever, 3 times, or not at all, as asked", () => {
    expect(gif("card").repetitionCount).toBe("Infinity");
    expect(gif("repeated 3 times, at 24 fps").repetitionCount).toBe("3");
    expect(gif("played once, transparent, with audio").repetitionCount).toBe("0");
  });

  it("shows the page through where it drew nothing", () => {
    const { shown } = gif("played once, transparent, with audio");
    const at = (x: number, y: number) => [...shown.rgba.subarray((y * shown.width + x) * 4, (y * shown.width + x) * 4 + 4)];
    expect(at(5, 5)[3]).toBe(0);
    expect(at(150, 90)).toEqual([255, 0, 0, 255]);
  });
});
