import { describe, expect, it } from "vitest";
import { chunkFrames, splitFrames } from "./frame-ranges.js";

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
    expect(splitFrames(90, 2)).toEqual([
      { start: 0, end: 45 },
      { start: 45, end: 90 },
    ]);
  });
});

describe("chunkFrames", () => {
  it("cuts frames into contiguous chunks of the chunk size, the last one shorter", () => {
    expect(chunkFrames(30, 10)).toEqual([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
      { start: 20, end: 30 },
    ]);
    expect(chunkFrames(31, 10).at(-1)).toEqual({ start: 30, end: 31 });
    expect(chunkFrames(5, 10)).toEqual([{ start: 0, end: 5 }]);
    expect(chunkFrames(1, 1)).toEqual([{ start: 0, end: 1 }]);
  });

  it("puts every frame in exactly one chunk", () => {
    for (const [total, size] of [
      [97, 7],
      [60, 60],
      [61, 60],
      [1000, 3],
    ] as const) {
      const frames = chunkFrames(total, size).flatMap(({ start, end }) => Array.from({ length: end - start }, (_, i) => start + i));
      expect(frames).toEqual(Array.from({ length: total }, (_, i) => i));
    }
  });

  it("refuses nonsense", () => {
    expect(() => chunkFrames(0, 10)).toThrow(RangeError);
    expect(() => chunkFrames(10, 0)).toThrow(RangeError);
    expect(() => chunkFrames(10, 2.5)).toThrow(RangeError);
  });
});
