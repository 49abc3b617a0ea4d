import { describe, expect, it } from "vitest";
import { splitFrames } from "./frame-ranges.js";

describe("splitFrames", () => {
  it("covers every frame once, in order, with contiguous ranges", () => {
    for (const total of [1, 2, 7, 30, 301]) {
      for (const workers of [1, 2, 3, 4, 8]) {
        const ranges = splitFrames(total, workers);
        expect(ranges[0]!.start).toBe(0);
        expect(ranges.at(-1)!.end).toBe(total);
        ranges.slice(1).forEach((range, i) => expect(range.start).toBe(ranges[i]!.end));
        expect(ranges.every((range) => range.end > range.start)).toBe(true);
      }
    }
  });

  it("never plans more workers than frames", () => {
    expect(splitFrames(2, 8)).toHaveLength(2);
    expect(splitFrames(90, 2)).toEqual([{ start: 0, end: 45 }, { start: 45, end: 90 }]);
  });
});
