import { describe, expect, it } from "vitest";
import type { RenderEvent } from "@compose/core";
import { ProgressMeter } from "./progress-meter.js";

function captureFrames(total: number): number[] {
  const frames: number[] = [];
  const meter = new ProgressMeter(total, (event: RenderEvent) => {
    if (event.type === "progress") frames.push(event.frame);
  });
  for (let i = 0; i < total; i++) meter.frameDone();
  meter.finish();
  return frames;
}

describe("ProgressMeter", () => {
  it("reports every whole percent however fast the frames come, ending at the last frame", () => {
    expect(captureFrames(24)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const thousand = captureFrames(1000);
    expect(thousand).toHaveLength(100);
    expect(thousand.at(-1)).toBe(1000);
  });

  it("sends no more than one event per whole percent when frames come at once", () => {
    const frames = captureFrames(100_000);
    expect(frames).toHaveLength(100);
    expect(frames[0]).toBe(1000);
  });

  it("reports counts given in batches, never moving back when a part starts again", () => {
    const frames: number[] = [];
    const meter = new ProgressMeter(10, (event: RenderEvent) => {
      if (event.type === "progress") frames.push(event.frame);
    });
    for (const count of [3, 6, 4, 6, 10]) meter.advanceTo(count);
    expect(frames).toEqual([3, 6, 10]);
  });
});
