import { describe, expect, it } from "vitest";
import { FramePace } from "./frame-pace.js";

/** Frames of `frameMs` shown at `at` each, the pace after the last. */
function paceOf(at: number[], frameMs = 1000 / 30): number {
  const pace = new FramePace();
  let last = 1;
  for (const time of at) last = pace.frameShown(time, frameMs);
  return last;
}

describe("FramePace", () => {
  it("is 1 while frames are shown in their time, or early", () => {
    expect(paceOf([0, 33.4, 66.7, 100, 133.4])).toBe(1);
    expect(paceOf([0, 20, 40, 60])).toBe(1);
  });

  it("is 1 until three frames tell", () => {
    expect(paceOf([0, 500])).toBe(1);
  });

  it("is the share of their time the frames are shown in, over the last eight", () => {
    // Every frame shown 100 ms after the last, standing for 50 ms each: half speed.
    expect(paceOf([0, 100, 200, 300, 400], 50)).toBeCloseTo(0.5, 6);
    // Slow at first, then in time again: the early frames fall out of the window.
    const recovered = [0, 200, 400, 600, ...Array.from({ length: 8 }, (_, i) => 650 + i * 50)];
    expect(paceOf(recovered, 50)).toBe(1);
  });

  it("goes no lower than a quarter, where browsers still play sound", () => {
    expect(paceOf([0, 1000, 2000, 3000], 50)).toBe(0.25);
  });
});
