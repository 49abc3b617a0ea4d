import { describe, expect, it } from "vitest";
import { validateRenderOptions, type RenderOptionsInput } from "@compose/core";
import type { LoadedComposition } from "../1-load/load-composition.js";
import type { AudioClip } from "../media/audio-clip.js";
import { makePlan, type PlanRequest } from "./make-plan.js";

const clip: AudioClip = { key: "0", input: { location: "/p/music.mp3" }, start: 0, duration: 2, mediaStart: 0, volume: 1, playbackRate: 1, channels: 2 };

/** A composition of 2 s at 320x180, loaded in a page, with or without audible media. */
function loaded(audio: AudioClip[] = []): Pick<LoadedComposition, "source" | "info" | "media" | "mode"> {
  return {
    source: { file: "/p/index.html", id: "card", width: 320, height: 180, metadata: {} as LoadedComposition["source"]["metadata"] },
    info: {
      width: 320, height: 180, duration: 2, durationSource: "data-duration", timingErrors: [], paintedBackgrounds: [],
    unavailableGraphics: [],
      needsHistory: false, box: { width: 320, height: 180, hidden: false },
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
const plan = (options: RenderOptionsInput, rest: Omit<PlanRequest, "options"> = {}, audio: AudioClip[] = []) =>
  makePlan(request(options, rest), loaded(audio), staging, () => undefined);

describe("makePlan", () => {
  it.each<[string, RenderOptionsInput, Omit<PlanRequest, "options">, AudioClip[], unknown]>([
    ["one worker, no audio: the encoder writes the staged file", { workers: 1 }, {}, [], {
      ranges: [{ start: 0, end: 60 }],
      targets: [{ kind: "file", path: staging.stagedPath }],
      assemble: undefined,
      audio: undefined,
    }],
    ["one worker with audio: a silent video, then the audio muxed into the staged file", { workers: 1 }, {}, [clip], {
      targets: [{ kind: "chunk", path: "/tmp/w/video.mp4" }],
      assemble: { format: "mp4", parts: ["/tmp/w/video.mp4"], audioFile: "/tmp/w/audio.m4a", into: staging.stagedPath, workDir: "/tmp/w" },
    }],
    ["two workers: a chunk each, joined", { workers: 2 }, {}, [], {
      ranges: [{ start: 0, end: 30 }, { start: 30, end: 60 }],
      targets: [{ kind: "chunk", path: "/tmp/w/chunk-0.mp4" }, { kind: "chunk", path: "/tmp/w/chunk-1.mp4" }],
      assemble: { format: "mp4", parts: ["/tmp/w/chunk-0.mp4", "/tmp/w/chunk-1.mp4"], audioFile: undefined, into: staging.stagedPath, workDir: "/tmp/w" },
    }],
    ["a slice of 2 frames with 4 workers: two ranges, output frames counted from 0", { workers: 4 }, { frames: { start: 10, end: 12 } }, [], {
      frames: { start: 10, end: 12 },
      totalFrames: 2,
      ranges: [{ start: 0, end: 1 }, { start: 1, end: 2 }],
    }],
    ["png-sequence: frames straight into the staged directory, audio beside them", { format: "png-sequence", workers: 2 }, {}, [clip], {
      targets: [
        { kind: "sequence", directory: staging.stagedPath, firstFrame: 0 },
        { kind: "sequence", directory: staging.stagedPath, firstFrame: 30 },
      ],
      assemble: undefined,
      audio: expect.objectContaining({ output: `${staging.stagedPath}/audio.aac` }),
      capture: { mode: "beginframe", image: "png", jpegQuality: 95, reuseFrames: true },
    }],
    ["a chunk of a distributed render: no audio however audible", { workers: 1 }, { frames: { start: 30, end: 60 }, audio: false }, [clip], {
      audio: undefined,
      output: expect.objectContaining({ whole: false }),
    }],
    ["in chunks of 25 frames: a range and a part per chunk, assembled with the audio mixed in the work directory", { workers: 4 }, { chunkSize: 25 }, [clip], {
      ranges: [{ start: 0, end: 25 }, { start: 25, end: 50 }, { start: 50, end: 60 }],
      targets: ["00000", "00001", "00002"].map((n) => ({ kind: "chunk", path: `/tmp/w/chunk-${n}.mp4` })),
      assemble: { format: "mp4", parts: ["00000", "00001", "00002"].map((n) => `/tmp/w/chunk-${n}.mp4`), audioFile: "/tmp/w/audio.m4a", into: staging.stagedPath, workDir: "/tmp/w" },
    }],
    ["png-sequence in chunks: a folder of frames per chunk, each numbered from 0, assembled", { format: "png-sequence" }, { chunkSize: 40 }, [clip], {
      targets: [{ kind: "sequence", directory: "/tmp/w/chunk-00000", firstFrame: 0 }, { kind: "sequence", directory: "/tmp/w/chunk-00001", firstFrame: 0 }],
      assemble: { format: "png-sequence", parts: ["/tmp/w/chunk-00000", "/tmp/w/chunk-00001"], audioFile: "/tmp/w/audio.aac", into: staging.stagedPath, workDir: "/tmp/w" },
    }],
    ["high quality: JPEG 95, and the preset's CRF reaches the encoder", { quality: "high", workers: 1 }, {}, [], {
      capture: { mode: "beginframe", image: "jpeg", jpegQuality: 95, reuseFrames: true },
      encode: expect.objectContaining({ quality: "high", crf: undefined, width: 320, height: 180, fps: 30 }),
    }],
  ])("%s", async (_name, options, rest, audio, expected) => {
    expect(await plan(options, rest, audio)).toMatchObject(expected as object);
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
