import { describe, expect, it } from "vitest";
import type { AudioClip } from "../1-load/media/audio-clip.js";
import { shiftClips } from "./shift-clips.js";

const clip = (over: Partial<AudioClip> = {}): AudioClip => ({
  key: "0",
  input: { location: "tone.wav" },
  start: 0.5,
  duration: 2,
  mediaStart: 0,
  volume: 1,
  playbackRate: 1,
  channels: 2,
  ...over,
});

describe("shiftClips", () => {
  it("cuts what began before the slice and drops what ended before it", () => {
    expect(shiftClips([clip({ start: 0.5, duration: 2 }), clip({ key: "1", start: 0, duration: 0.5 })], 1)).toEqual([
      clip({ start: 0, duration: 1.5, mediaStart: 0.5 }),
    ]);
  });
});
