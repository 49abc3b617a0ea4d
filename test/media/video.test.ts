/**
 * Managed <video>: output frame n shows exactly the source frame at
 * (t - data-start) x data-playback-rate + data-media-start, only inside [start, start + duration),
 * in the element's CSS box with its object-fit; data-duration defaults to the source's natural
 * length (and the composition's duration follows it); src and data-duration may be set by a
 * script; the same holds inside sub-composition instances.
 *
 * The source is a 2 s, 30 fps clip showing red, lime, blue, white for 15 frames each, so the
 * colour at a chosen output frame tells which source frame it shows: frames on both sides of each
 * colour change are checked.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult } from "../support/cli.js";
import { decodeAllFrames, ffprobe, videoStream, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { clipColourOfFrame, colourName, createCacheDir, generateMedia } from "../support/test-media.js";

const FULL = "position: absolute; left: 0; top: 0; width: 320px; height: 180px;";

const FILES: Record<string, string> = {
  /** No data-duration anywhere: the clip's 2 s from 0.2 s make the composition 2.2 s (66 frames). */
  "natural.html": compositionHtml({
    id: "natural",
    backdrop: "#000000",
    body: `<video id="clip" src="media/colours.mp4" data-start="0.2" style="${FULL}"></video>`,
  }),
  /**
   * Top row: four 80x45 videos, each exercising timing attributes. Below: the 16:9 clip in a tall
   * box with object-fit contain (bars above and below) and in a narrow one with cover (filled).
   * No two videos share source, media-start, duration and rate (see "same-clip" below).
   */
  "timing.html": compositionHtml({
    id: "timing",
    duration: 2.5,
    backdrop: "#808080",
    variables: [{ id: "length", type: "number", label: "Length", default: 0.8 }],
    css: `.cell { position: absolute; top: 0; width: 80px; height: 45px; }`,
    body: `
<video id="offset" class="cell" src="media/colours.mp4" data-start="0.5" data-media-start="0.5" data-duration="1" style="left: 0"></video>
<video id="fast" class="cell" src="media/colours.mp4" data-start="0" data-playback-rate="2" style="left: 80px"></video>
<video id="scripted" class="cell" src="media/colours.mp4" data-start="1" style="left: 160px"></video>
<video id="slow" class="cell" src="media/colours.mp4" data-start="0" data-media-start="1" data-playback-rate="0.5" data-duration="2" style="left: 240px"></video>
<video id="contain" src="media/colours.mp4" data-start="0" data-duration="0.5" style="position: absolute; left: 20px; top: 60px; width: 80px; height: 120px; object-fit: contain"></video>
<video id="cover" src="media/colours.mp4" data-start="0" data-duration="0.4" style="position: absolute; left: 140px; top: 60px; width: 60px; height: 120px; object-fit: cover"></video>`,
    after: `<script>
  const { length = 0.8 } = __compose.getVariables();
  document.getElementById("scripted").dataset.duration = String(length);
</script>`,
  }),
  /**
   * The clip starts 0.2 s into a card and lasts its natural 2 s, or the card's `length` variable
   * when that is set (by the card's script). Card a starts at 0.5 s (clip at 0.7 s), card b at 1 s
   * (clip at 1.2 s) with length 0.5 (clip until 1.7 s).
   */
  "cards/card.html": `<!doctype html>
<html data-composition-variables='[{"id":"length","type":"number","label":"Length","default":0}]'>
<head><style>* { margin: 0; } #card { position: relative; width: 160px; height: 90px; }</style></head>
<body>
<div id="card" data-composition-id="card" data-width="160" data-height="90">
  <video id="clip" src="../media/colours.mp4" data-start="0.2" style="position: absolute; left: 0; top: 0; width: 160px; height: 90px"></video>
</div>
<script>
  const { length = 0 } = __compose.getVariables();
  if (length > 0) document.getElementById("clip").dataset.duration = String(length);
</script>
</body></html>`,
  "sub.html": compositionHtml({
    id: "sub",
    duration: 2,
    backdrop: "#000000",
    body: `
<div data-composition-id="a" data-composition-src="cards/card.html" data-start="0.5" style="position: absolute; left: 0; top: 0"></div>
<div data-composition-id="b" data-composition-src="cards/card.html" data-start="1" data-variable-values='{"length": 0.5}'
     style="position: absolute; left: 160px; top: 90px"></div>`,
  }),
  /** Nine videos showing the same clip with the same timing, in a 3x3 grid of 100x60 cells. */
  "same-clip.html": compositionHtml({
    id: "same-clip",
    duration: 0.6,
    backdrop: "#000000",
    body: Array.from(
      { length: 9 },
      (_, i) =>
        `<video id="copy-${i}" src="media/colours.mp4" data-start="0" data-duration="1" style="position: absolute; left: ${(i % 3) * 100}px; top: ${Math.floor(i / 3) * 60}px; width: 100px; height: 60px"></video>`,
    ).join("\n"),
  }),
  /** Twelve videos of the same clip, each with its own duration (0.61 s, 0.66 s...), in 80x60 cells. */
  "many.html": compositionHtml({
    id: "many",
    duration: 0.5,
    backdrop: "#000000",
    body: Array.from(
      { length: 12 },
      (_, i) =>
        `<video id="video-${i}" src="media/colours.mp4" data-start="0" data-duration="${(0.61 + i * 0.05).toFixed(2)}" style="position: absolute; left: ${(i % 4) * 80}px; top: ${Math.floor(i / 4) * 60}px; width: 80px; height: 60px"></video>`,
    ).join("\n"),
  }),
  /** The video's src comes from a string variable, set by the script; nothing has a data-duration. */
  "vars.html": compositionHtml({
    id: "vars",
    backdrop: "#000000",
    variables: [{ id: "clip", type: "string", label: "Clip", default: "media/colours.mp4" }],
    body: `<video id="clip" data-start="0" style="${FULL}"></video>`,
    after: `<script>
  const { clip = "media/colours.mp4" } = __compose.getVariables();
  const video = document.getElementById("clip");
  video.src = clip;
</script>`,
  }),
};

interface Rendered {
  result: CliResult;
  frames: Frame[];
}

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const rendered = new Map<string, Rendered>();

const RENDERS: Array<{ name: string; file: string; args: string[] }> = [
  { name: "natural", file: "natural.html", args: ["--format", "mp4", "--output", "out/natural.mp4"] },
  { name: "timing", file: "timing.html", args: ["--format", "png-sequence", "--workers", "2", "--output", "out/timing"] },
  { name: "sub", file: "sub.html", args: ["--format", "png-sequence", "--output", "out/sub"] },
  { name: "same-clip", file: "same-clip.html", args: ["--format", "png-sequence", "--output", "out/same-clip"] },
  { name: "many", file: "many.html", args: ["--format", "png-sequence", "--output", "out/many"] },
  { name: "vars-default", file: "vars.html", args: ["--format", "png-sequence", "--output", "out/vars-default"] },
  {
    name: "vars-other",
    file: "vars.html",
    args: ["--format", "png-sequence", "--output", "out/vars-other", "--variables", JSON.stringify({ clip: "media/other.mp4" })],
  },
];

beforeAll(async () => {
  project = await createProject(FILES, { prefix: "compose-media-video-" });
  cache = await createCacheDir();
  await generateMedia(project.dir, ["colours", "other"]);
  await limited(
    2,
    RENDERS.map(({ name, file, args }) => async () => {
      const fixed = args.map((arg) => (arg.startsWith("out/") ? project.path(arg) : arg));
      // A cache of its own: what one render extracted must not spare another its extractions.
      const result = await render([project.path(file), "--quiet", ...fixed], { env: { COMPOSE_CACHE_DIR: join(cache.dir, name) } });
      const output = fixed[fixed.indexOf("--output") + 1]!;
      const frames = result.code !== 0 ? [] : await decodeAllFrames(output.endsWith(".mp4") ? output : `${output}/frame_%06d.png`);
      rendered.set(name, { result, frames });
    }),
  );
});
afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

/** The render's frames, after checking it succeeded quietly. */
function framesOf(name: string): Frame[] {
  const { result, frames } = rendered.get(name)!;
  expect(result.stderr, `${name} stderr`).toBe("");
  expect(result.code, `${name} exit code`).toBe(0);
  return frames;
}

/** Colour names at (x, y) of the given frames, keyed by frame number. */
function coloursAt(frames: Frame[], x: number, y: number, at: readonly number[]): Record<number, string> {
  return Object.fromEntries(at.map((n) => [n, n < frames.length ? colourName(frames[n]!, x, y) : "(no frame)"]));
}

/** What the four-colour clip shows at output frame n, given the source frame n maps to (undefined: hidden). */
function expected(at: readonly number[], sourceFrame: (n: number) => number | undefined, hidden = "black"): Record<number, string> {
  return Object.fromEntries(
    at.map((n) => {
      const source = sourceFrame(n);
      return [n, source === undefined ? hidden : clipColourOfFrame(source)];
    }),
  );
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe("a video with its src in the HTML and no data-duration", () => {
  it("lasts its natural length, and the composition (with no duration of its own) ends with it", async () => {
    const frames = framesOf("natural");
    expect(frames).toHaveLength(66);
    const probe = await ffprobe(project.path("out/natural.mp4"));
    expect(Number(videoStream(probe).duration)).toBeCloseTo(2.2, 1);
  });

  it("is silent without data-has-audio although its source has sound: the composition has no audio stream", async () => {
    framesOf("natural");
    const probe = await ffprobe(project.path("out/natural.mp4"));
    expect(probe.streams.map((stream) => stream.codec_type)).toEqual(["video"]);
  });

  it("shows output frame n = source frame n - 6 (start 0.2 s), nothing before its start", () => {
    const frames = framesOf("natural");
    const at = range(0, 66);
    expect(coloursAt(frames, 160, 90, at)).toEqual(expected(at, (n) => (n < 6 ? undefined : n - 6)));
  });

  it("fills its CSS box (the 160x90 source scaled to 320x180)", () => {
    const frame = framesOf("natural")[10]!;
    expect([colourName(frame, 1, 1), colourName(frame, 318, 178), colourName(frame, 160, 90)]).toEqual(["red", "red", "red"]);
  });
});

describe("timing attributes", () => {
  const ROW = 22;
  const hiddenIsGrey = (at: readonly number[], source: (n: number) => number | undefined) => expected(at, source, "grey");

  it("data-media-start 0.5 at data-start 0.5 for data-duration 1: frames 15-44 show source frames 15-44, hidden outside", () => {
    const frames = framesOf("timing");
    expect(frames).toHaveLength(75);
    const at = [0, 14, 15, 16, 29, 30, 44, 45, 60, 74];
    expect(coloursAt(frames, 40, ROW, at)).toEqual(hiddenIsGrey(at, (n) => (n >= 15 && n < 45 ? n : undefined)));
  });

  it("data-playback-rate 2 without data-duration: source frame 2n, for the natural 1 s (2 s of source at double speed)", () => {
    const frames = framesOf("timing");
    const at = [0, 7, 8, 14, 15, 22, 23, 29, 30, 45];
    expect(coloursAt(frames, 120, ROW, at)).toEqual(hiddenIsGrey(at, (n) => (n < 30 ? 2 * n : undefined)));
  });

  it("data-duration set by the script (0.8 s from a number variable) ends the video at 1.8 s instead of the source's end", () => {
    const frames = framesOf("timing");
    const at = [29, 30, 44, 45, 53, 54, 60, 74];
    expect(coloursAt(frames, 200, ROW, at)).toEqual(hiddenIsGrey(at, (n) => (n >= 30 && n < 54 ? n - 30 : undefined)));
  });

  it("data-playback-rate 0.5 from data-media-start 1: each source frame from 30 on is shown for two output frames", () => {
    const frames = framesOf("timing");
    const at = [0, 1, 28, 29, 30, 31, 58, 59, 60, 74];
    // Output frame n is source time 1 + 0.5 n / 30, which lies in source frame 30 + floor(n / 2).
    expect(coloursAt(frames, 280, ROW, at)).toEqual(hiddenIsGrey(at, (n) => (n < 60 ? 30 + Math.floor(n / 2) : undefined)));
  });
});

describe("the element's CSS box and object-fit", () => {
  it("contain: the 16:9 source in an 80x120 box is letterboxed, 37.5 px bars above and below", () => {
    const frame = framesOf("timing")[5]!;
    const column = [61, 93, 102, 138, 147, 179].map((y) => colourName(frame, 60, y));
    expect(column).toEqual(["grey", "grey", "red", "red", "grey", "grey"]);
    // The picture spans the box's whole width, and no further.
    expect([17, 21, 98, 103].map((x) => colourName(frame, x, 120))).toEqual(["grey", "red", "red", "grey"]);
  });

  it("cover: the source fills a 60x120 box completely, and nothing outside it", () => {
    const frame = framesOf("timing")[5]!;
    expect([colourName(frame, 141, 61), colourName(frame, 198, 178), colourName(frame, 170, 120)]).toEqual(["red", "red", "red"]);
    expect([colourName(frame, 137, 120), colourName(frame, 203, 120), colourName(frame, 170, 57)]).toEqual(["grey", "grey", "grey"]);
  });
});

describe("a video inside sub-composition instances", () => {
  it("starts at the host's start plus its own (0.5 + 0.2 s): frame n shows source frame n - 21", () => {
    const frames = framesOf("sub");
    expect(frames).toHaveLength(60);
    const at = [0, 20, 21, 35, 36, 50, 51, 59];
    expect(coloursAt(frames, 80, 45, at)).toEqual(expected(at, (n) => (n < 21 ? undefined : n - 21)));
  });

  it("the second instance (host at 1 s, length 0.5 from its variable) shows the clip from frame 36 to 50, in its own box", () => {
    const frames = framesOf("sub");
    const at = [0, 21, 35, 36, 50, 51, 59];
    expect(coloursAt(frames, 240, 135, at)).toEqual(expected(at, (n) => (n >= 36 && n < 51 ? n - 36 : undefined)));
    // Neither instance draws outside its 160x90 box.
    expect(coloursAt(frames, 240, 45, [30, 59])).toEqual({ 30: "black", 59: "black" });
  });
});

describe("one clip shown by several videos with the same timing", () => {
  // Their frames share one cache entry, which must be filled once, not raced for.
  it("renders, every copy showing the clip", () => {
    const frames = framesOf("same-clip");
    expect(frames).toHaveLength(18);
    const centres = Array.from({ length: 9 }, (_, i) => [(i % 3) * 100 + 50, Math.floor(i / 3) * 60 + 30] as const);
    for (const n of [0, 14, 15, 17]) {
      expect(
        centres.map(([x, y]) => colourName(frames[n]!, x, y)),
        `frame ${n}`,
      ).toEqual(Array(9).fill(clipColourOfFrame(n)));
    }
  });
});

describe("twelve videos in one composition", () => {
  const centres = Array.from({ length: 12 }, (_, i) => [(i % 4) * 80 + 40, Math.floor(i / 4) * 60 + 30] as const);

  it("all show the clip", () => {
    const { result, frames } = rendered.get("many")!;
    expect(result.code).toBe(0);
    expect(frames).toHaveLength(15);
    for (const n of [0, 14]) {
      expect(
        centres.map(([x, y]) => colourName(frames[n]!, x, y)),
        `frame ${n}`,
      ).toEqual(Array(12).fill("red"));
    }
  });

  // Extractions run a few at a time, so the render's signal never collects a listener per video.
  it("print nothing on stderr", () => {
    expect(rendered.get("many")!.result.stderr).toBe("");
  });
});

describe("a src set by the script from a string variable", () => {
  it("with the default value, plays the four-colour clip for its natural 2 s", () => {
    const frames = framesOf("vars-default");
    expect(frames).toHaveLength(60);
    const at = [0, 14, 15, 30, 45, 59];
    expect(coloursAt(frames, 160, 90, at)).toEqual(expected(at, (n) => n));
  });

  it("with --variables naming the other clip, plays that one, and the composition follows its 1 s", async () => {
    const frames = framesOf("vars-other");
    expect(frames).toHaveLength(30);
    expect(coloursAt(frames, 160, 90, [0, 14, 15, 29])).toEqual({ 0: "yellow", 14: "yellow", 15: "magenta", 29: "magenta" });
    // The variable's clip has no audio track and no element asks for sound: no sidecar.
    expect((await readdir(project.path("out/vars-other"))).filter((name) => !name.endsWith(".png"))).toEqual([]);
  });
});
