/**
 * Flat colours come out as the page drew them. Eight flat colours are rendered to every format:
 * mp4 at every preset and with --gpu, mov, webm opaque and transparent, png-sequence, and mp4, mov
 * and webm also by two workers whose chunks are joined into one file. Each render succeeds without
 * a warning (but --gpu's, on a machine without a hardware encoder, that it encodes in software);
 * each file decodes with ffmpeg, reading its own colour tags, to within 1 of the exact
 * value in its first and last frame and in the frame the browsers show, and is tagged with the
 * pixel format, matrix, primaries, transfer and range of its pixels. What a viewer sees: each file
 * a browser plays (mp4 at every preset and with --gpu, webm opaque and transparent), played in
 * Debian's chromium and firefox-esr, its frame at 0.5 s drawn to a canvas and read back, shows
 * every colour within 3.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYERS, playedColours, type PlayedColours, type PlayerName } from "../support/browser-playback.js";
import { limited, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { colourDistance, decodeFrames, ffprobe, hex, pixel, videoStream } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { renderInProcess, type InProcessRender } from "../support/render-in-process.js";

const COLOURS = ["#111111", "#808080", "#ffffff", "#ff0000", "#00ff00", "#0000ff", "#e0ac69", "#3a7bd5"] as const;
/** A 4x2 grid over the 320x180 frame; each patch is sampled at its centre. */
const CENTRES = COLOURS.map((_, i) => [(i % 4) * 80 + 40, Math.floor(i / 4) * 90 + 45] as const);

/** The patches fill their cells, or (transparent) leave a transparent margin around each. */
const grid = (inset: number) =>
  COLOURS.map(
    (colour, i) =>
      `<div style="position:absolute;left:${(i % 4) * 80 + inset}px;top:${Math.floor(i / 4) * 90 + inset}px;width:${80 - 2 * inset}px;height:${90 - 2 * inset}px;background:${colour}"></div>`,
  ).join("\n");

const FPS = 30;
const DURATION = 0.7;
/** The time the browsers show. */
const PLAYED_AT = 0.5;
/** The frames ffmpeg decodes: the first, the one the browsers show and the last. */
const DECODED_FRAMES = [0, PLAYED_AT * FPS, Math.round(DURATION * FPS) - 1];

const FILES = {
  "opaque.html": compositionHtml({ id: "opaque", duration: DURATION, body: grid(0) }),
  "transparent.html": compositionHtml({ id: "transparent", duration: DURATION, body: grid(12) }),
};

interface Run {
  file: keyof typeof FILES;
  output: string;
  /** The render's options, as `compose render`'s flags give them. */
  options: Record<string, unknown>;
  /** Played in the browsers: the formats a <video> element plays, each by one worker. */
  played: boolean;
  /** The one warning the render may give, where the machine lacks what it asks for. */
  mayWarn?: string;
}

const RUNS = {
  mp4: { file: "opaque.html", output: "standard.mp4", options: { format: "mp4", workers: 1 }, played: true },
  "mp4 in two chunks": { file: "opaque.html", output: "chunked.mp4", options: { format: "mp4", workers: 2 }, played: false },
  "mp4 draft": { file: "opaque.html", output: "draft.mp4", options: { format: "mp4", workers: 1, quality: "draft" }, played: true },
  "mp4 high": { file: "opaque.html", output: "high.mp4", options: { format: "mp4", workers: 1, quality: "high" }, played: true },
  // A hardware encoder where there is one; elsewhere this is the software fallback.
  "mp4 --gpu": { file: "opaque.html", output: "gpu.mp4", options: { format: "mp4", workers: 1, gpu: true }, played: true, mayWarn: "gpu-unavailable" },
  mov: { file: "opaque.html", output: "out.mov", options: { format: "mov", workers: 1 }, played: false },
  "mov in two chunks": { file: "opaque.html", output: "chunked.mov", options: { format: "mov", workers: 2 }, played: false },
  webm: { file: "opaque.html", output: "opaque.webm", options: { format: "webm", workers: 1 }, played: true },
  "webm in two chunks": { file: "opaque.html", output: "chunked.webm", options: { format: "webm", workers: 2 }, played: false },
  "webm with transparency": { file: "transparent.html", output: "transparent.webm", options: { format: "webm", workers: 1 }, played: true },
  "png-sequence": { file: "opaque.html", output: "frames", options: { format: "png-sequence", workers: 1 }, played: false },
} satisfies Record<string, Run>;
type RunName = keyof typeof RUNS;
const NAMES = Object.keys(RUNS) as RunName[];
const PLAYED = NAMES.filter((name) => RUNS[name].played);

/** What each video format's tags must say: what browsers play right for mp4 and webm, BT.709 for ProRes. */
const TAGS = {
  mp4: { pix_fmt: "yuv420p", color_space: "smpte170m", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" },
  mov: { color_space: "bt709", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" },
  webm: { pix_fmt: "yuv420p", color_space: "smpte170m", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" },
};

const PLAYER_NAMES = (Object.keys(PLAYERS) as PlayerName[]).filter((player) => existsSync(PLAYERS[player]));

let project: TempProject;
const results = {} as Record<RunName, InProcessRender>;
const played = {} as Record<PlayerName, Map<string, PlayedColours>>;
const outputOf = (name: RunName) => project.path(RUNS[name].output);

beforeAll(async () => {
  project = await createProject(FILES, { prefix: "compose-flat-colours-" });
  await limited(
    2,
    NAMES.map((name) => async () => {
      const { file, output, options } = RUNS[name];
      results[name] = await renderInProcess({ composition: project.path(file), output: project.path(output), options });
    }),
  );
  const playable = PLAYED.filter((name) => results[name].error === undefined).map(outputOf);
  for (const player of PLAYER_NAMES) played[player] = playable.length === 0 ? new Map() : await playedColours(player, playable, CENTRES, PLAYED_AT);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function expectRendered(name: RunName): void {
  const { mayWarn }: Run = RUNS[name];
  expect(results[name].error).toBeUndefined();
  expect(results[name].warnings.filter((warning) => !(mayWarn && warning.startsWith(`[${mayWarn}] `)))).toEqual([]);
}

function report(found: ReadonlyArray<readonly number[]>): string {
  return COLOURS.map((colour, i) => `${colour} -> (${found[i]!.join(",")})`).join(" ");
}

const worst = (found: ReadonlyArray<readonly number[]>) => Math.max(...COLOURS.map((colour, i) => colourDistance(found[i]!, hex(colour))));

describe.each(NAMES)("%s", (name) => {
  it("decodes every flat colour within 1 of its exact value, reading its tags, in the first, played and last frame", async () => {
    expectRendered(name);
    const frames =
      name === "png-sequence"
        ? await decodeFrames(`${outputOf(name)}/frame_%06d.png`, DECODED_FRAMES)
        : await decodeFrames(outputOf(name), DECODED_FRAMES, { asTagged: true, vp9Alpha: RUNS[name].output.endsWith(".webm") });
    frames.forEach((frame, i) => {
      const found = CENTRES.map(([x, y]) => pixel(frame, x, y).slice(0, 3));
      expect(worst(found), `frame ${DECODED_FRAMES[i]}: ${report(found)}`).toBeLessThanOrEqual(1);
    });
  });

  it.skipIf(name === "png-sequence")("has the pixel format, and is tagged with the matrix, primaries, transfer and range of its pixels", async () => {
    expectRendered(name);
    const format = RUNS[name].output.split(".").pop() as keyof typeof TAGS;
    const stream = videoStream(await ffprobe(outputOf(name))) as unknown as Record<string, string>;
    const tags = Object.fromEntries(Object.keys(TAGS[format]).map((key) => [key, stream[key]]));
    expect(tags).toEqual(TAGS[format]);
  });
});

describe.each(PLAYED)("%s", (name) => {
  it.each(PLAYER_NAMES)("plays in %s with every colour within 3 of the page's", (player) => {
    expectRendered(name);
    const found = played[player].get(outputOf(name))!;
    expect(worst(found), report(found)).toBeLessThanOrEqual(3);
  });
});
