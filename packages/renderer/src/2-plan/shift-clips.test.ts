import { describe, expect, it } from "vitest";
import { audioClip } from "../media/audio-clip.test-helpers.js";
import { shiftClips } from "./shift-clips.js";

const clip = audioClip;

describe("shiftClips", () => {
  it("cuts what began before the slice and drops what ended before it", () => {
    expect(shiftClips([clip({ start: 0.5, duration: 2 }), clip({ key: "1", start: 0, duration: 0.5 })], 1)).toEqual([
      clip({ start: 0, duration: 1.5, mediaStart: 0.5 }),
    ]);
  });
});
