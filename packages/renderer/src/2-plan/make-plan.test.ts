import { describe, expect, it } from "vitest";
import { validateRenderOptions, type RenderEvent, type RenderOptionsInput } from "@compose/core";
import type { LoadedComposition } from "../1-load/load-composition.js";
import type { AudioClip } from "../media/audio-clip.js";
import { makePlan, type PlanRequest } from "./make-plan.js";

const clip: AudioClip = { key: "0", input: { location: "/p/music.mp3" }, start: 0, duration: 2, mediaStart: 0, volume: 1, playbackRate: 1, channels: 2 };

/** A composition of 2 s at 320x180, loaded in a page at `scale`, with or without audible media. */
function loaded(audio: AudioClip[] = [], scale = 1): Pick<LoadedComposition, "source" | "frameSize" | "info" | "media" | "mode"> {
  return {
    source: { file: "/p/index.html", id: "card", width: 320, height: 180, metadata: {} as LoadedComposition["source"]["metadata"] },
    frameSize: { width: 320 * scale, height: 180 * scale },
    info: {
      width: 320,
      height: 180,
      duration: 2,
      durationSource: "data-duration",
      timingErrors: [],
      paintedBackgrounds: [],
      unavailableGraphics: [],
      needsHistory: false,
      box: { width: 320, height: 180, hidden: false },
    },
    media: { plans: [], audio, hdr: undefined },
    mode: "beginframe",
  };
}

function request(options: RenderOptionsInput, rest: Omit<PlanRequest, "options"> = {}): PlanRequest {
  const result = validateRenderOptions(options);
  if (!result.ok) throw new Error(result.problem.problem);
  return { options: result.options, ...rest };
}

const staging = { output: "/out/card.mp4", stagedPath: "/out/.card.mp4.partial-x/card.mp4", workDir: "/tmp/w" };
const plan = (
  options: RenderOptionsInput,
  rest: Omit<PlanRequest, "options"> = {},
  audio: AudioClip[] = [],
  emit: (event: RenderEvent) => void = () => undefined,
) => makePlan(request(options, rest), loaded(audio, options.scale), staging, emit);

describe("makePlan", () => {
  it.each<[string, RenderOptionsInput, Omit<PlanRequest, "options">, AudioClip[], unknown]>([
    [
      "one worker, no audio: the encoder writes the staged file",
      { workers: 1 },
      {},
      [],
      {
        ranges: [{ start: 0, end: 60 }],
        targets: [{ kind: "file", path: staging.stagedPath }],
        assemble: undefined,
        audio: undefined,
      },
    ],
    [
      "one worker with audio: a silent video, then the audio muxed into the staged file",
      { workers: 1 },
      {},
      [clip],
      {
        targets: [{ kind: "chunk", path: "/tmp/w/video.mp4" }],
        assemble: { format: "mp4", parts: ["/tmp/w/video.mp4"], audioFile: "/tmp/w/audio.m4a", into: staging.stagedPath, workDir: "/tmp/w" },
      },
    ],
    [
      "two workers: a chunk each, joined",
      { workers: 2 },
      {},
      [],
      {
        ranges: [
          { start: 0, end: 30 },
          { start: 30, end: 60 },
        ],
        targets: [
          { kind: "chunk", path: "/tmp/w/chunk-0.mp4" },
          { kind: "chunk", path: "/tmp/w/chunk-1.mp4" },
        ],
        assemble: { format: "mp4", parts: ["/tmp/w/chunk-0.mp4", "/tmp/w/chunk-1.mp4"], audioFile: undefined, into: staging.stagedPath, workDir: "/tmp/w" },
      },
    ],
    [
      "a slice of 2 frames with 4 workers: two ranges, output frames counted from 0",
      { workers: 4 },
      { frames: { start: 10, end: 12 } },
      [],
      {
        frames: { start: 10, end: 12 },
        totalFrames: 2,
        ranges: [
          { start: 0, end: 1 },
          { start: 1, end: 2 },
        ],
      },
    ],
    [
      "png-sequence: frames straight into the staged directory, audio beside them",
      { format: "png-sequence", workers: 2 },
      {},
      [clip],
      {
        targets: [
          { kind: "sequence", directory: staging.stagedPath, firstFrame: 0 },
          { kind: "sequence", directory: staging.stagedPath, firstFrame: 30 },
        ],
        assemble: undefined,
        audio: expect.objectContaining({ output: `${staging.stagedPath}/audio.aac` }),
        capture: { mode: "beginframe", image: "png", jpegQuality: 95, reuseFrames: true },
      },
    ],
    [
      "a chunk of a distributed render: no audio however audible",
      { workers: 1 },
      { frames: { start: 30, end: 60 }, audio: false },
      [clip],
      {
        audio: undefined,
        output: expect.objectContaining({ whole: false }),
      },
    ],
    [
      "in chunks of 25 frames: a range and a part per chunk, assembled with the audio mixed in the work directory",
      { workers: 4 },
      { chunkSize: 25 },
      [clip],
      {
        ranges: [
          { start: 0, end: 25 },
          { start: 25, end: 50 },
          { start: 50, end: 60 },
        ],
        targets: ["00000", "00001", "00002"].map((n) => ({ kind: "chunk", path: `/tmp/w/chunk-${n}.mp4` })),
        assemble: {
          format: "mp4",
          parts: ["00000", "00001", "00002"].map((n) => `/tmp/w/chunk-${n}.mp4`),
          audioFile: "/tmp/w/audio.m4a",
          into: staging.stagedPath,
          workDir: "/tmp/w",
        },
      },
    ],
    [
      "png-sequence in chunks: a folder of frames per chunk, each numbered from 0, assembled",
      { format: "png-sequence" },
      { chunkSize: 40 },
      [clip],
      {
        targets: [
          { kind: "sequence", directory: "/tmp/w/chunk-00000", firstFrame: 0 },
          { kind: "sequence", directory: "/tmp/w/chunk-00001", firstFrame: 0 },
        ],
        assemble: {
          format: "png-sequence",
          parts: ["/tmp/w/chunk-00000", "/tmp/w/chunk-00001"],
          audioFile: "/tmp/w/audio.aac",
          into: staging.stagedPath,
          workDir: "/tmp/w",
        },
      },
    ],
    [
      "high quality: JPEG 95, and the preset's CRF reaches the encoder",
      { quality: "high", workers: 1 },
      {},
      [],
      {
        capture: { mode: "beginframe", image: "jpeg", jpegQuality: 95, reuseFrames: true },
        encode: expect.objectContaining({ quality: "high", crf: undefined, width: 320, height: 180, fps: 30 }),
      },
    ],
    [
      "gif, one worker: a lossless part, made into the staged file in two passes with the loop count",
      { format: "gif", workers: 1, gifLoop: 2 },
      {},
      [],
      {
        targets: [{ kind: "chunk", path: "/tmp/w/chunk-0.mov" }],
        assemble: {
          format: "gif",
          parts: ["/tmp/w/chunk-0.mov"],
          audioFile: undefined,
          palette: { fps: 30, frames: 60, loop: 2 },
          into: staging.stagedPath,
          workDir: "/tmp/w",
        },
        capture: { mode: "beginframe", image: "png", jpegQuality: 95, reuseFrames: true },
      },
    ],
    [
      "gif, two workers, the composition with audio: a part each, no audio",
      { format: "gif", workers: 2, fps: 24 },
      {},
      [clip],
      {
        targets: [
          { kind: "chunk", path: "/tmp/w/chunk-0.mov" },
          { kind: "chunk", path: "/tmp/w/chunk-1.mov" },
        ],
        assemble: { format: "gif", parts: ["/tmp/w/chunk-0.mov", "/tmp/w/chunk-1.mov"], audioFile: undefined, palette: { fps: 24, frames: 48, loop: 0 } },
        audio: undefined,
      },
    ],
    [
      "gif in chunks: lossless parts, assembled with the palette",
      { format: "gif" },
      { chunkSize: 40 },
      [],
      {
        targets: ["00000", "00001"].map((n) => ({ kind: "chunk", path: `/tmp/w/chunk-${n}.mov` })),
        assemble: { format: "gif", parts: ["00000", "00001"].map((n) => `/tmp/w/chunk-${n}.mov`), palette: { fps: 30, frames: 60, loop: 0 } },
      },
    ],
    [
      "--scale 2: frames of twice the composition's size, captured at that size",
      { scale: 2, workers: 1 },
      {},
      [],
      {
        composition: { id: "card", width: 320, height: 180 },
        frameSize: { width: 640, height: 360 },
        encode: expect.objectContaining({ width: 640, height: 360, capturedSize: undefined }),
      },
    ],
    [
      "--scale 0.25: drawn at the browser's smallest scale, 0.5, and reduced by the encoder",
      { scale: 0.25, workers: 1 },
      {},
      [],
      {
        frameSize: { width: 80, height: 45 },
        encode: expect.objectContaining({ width: 80, height: 45, capturedSize: { width: 160, height: 90 } }),
      },
    ],
  ])("%s", async (_name, options, rest, audio, expected) => {
    expect(await plan(options, rest, audio)).toMatchObject(expected as object);
  });

  it("leaves a composition's audio out of a format without sound, with a warning naming it", async () => {
    const events: RenderEvent[] = [];
    await plan({ format: "gif", workers: 1 }, {}, [clip], (event) => events.push(event));
    expect(events).toEqual([{ type: "warning", code: "audio-left-out", message: "the composition has audio, but gif has no sound: the output is silent" }]);
    const silent: RenderEvent[] = [];
    await plan({ format: "gif", workers: 1 }, {}, [], (event) => silent.push(event));
    expect(silent).toEqual([]);
  });

  it("shifts the audio into a slice's time", async () => {
    const sliced = await plan({ workers: 1 }, { frames: { start: 30, end: 60 } }, [clip]);
    expect(sliced.audio?.clips).toEqual([{ ...clip, start: 0, duration: 1, mediaStart: 1 }]);
    expect(sliced.audio).toMatchObject({ firstFrame: 30, frames: 30 });
  });

  it("refuses a slice that starts past the last frame, naming it", async () => {
    await expect(plan({ workers: 1 }, { frames: { start: 60, end: 70 } })).rejects.toThrow(/frame 60 is past the composition's last frame, 59/);
  });

  it("is frozen, down to its parts", async () => {
    const made = await plan({ workers: 2 });
    for (const part of [made, made.ranges, made.ranges[0], made.capture, made.encode, made.targets[0], made.output]) expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      made.ranges[0]!.start = 5;
    }).toThrow(TypeError);
  });
});
