import { describe, expect, it } from "vitest";
import { selectFrames } from "./frame-selection.js";

describe("selectFrames", () => {
  it.each([
    [{}, 30, { still: false, suffix: "" }],
    [{ frame: "12" }, 30, { frames: { start: 12, end: 13 }, still: true, suffix: "-frame-12" }],
    [{ frame: "0" }, 30, { frames: { start: 0, end: 1 }, still: true, suffix: "-frame-0" }],
    [{ time: "1.5" }, 30, { frames: { start: 45, end: 46 }, still: true, suffix: "-frame-45" }],
    [{ time: "1.5" }, 24, { frames: { start: 36, end: 37 }, still: true, suffix: "-frame-36" }],
    [{ time: "0.02" }, 60, { frames: { start: 1, end: 2 }, still: true, suffix: "-frame-1" }],
    [{ frames: "30-59" }, 30, { frames: { start: 30, end: 60 }, still: false, suffix: "-frames-30-59" }],
    [{ frames: "7-7" }, 30, { frames: { start: 7, end: 8 }, still: false, suffix: "-frames-7-7" }],
    [{ frames: "30-" }, 30, { frames: { start: 30, end: Number.MAX_SAFE_INTEGER }, still: false, suffix: "-frames-30-end" }],
  ])("%j at %i fps", (flags, fps, expected) => {
    expect(selectFrames(flags, fps)).toEqual(expected);
  });

  it.each([
    [{ frame: "-1" }, /--frame must be a frame number, 0 or more \(got -1\)/],
    [{ frame: "1.5" }, /--frame must be a frame number/],
    [{ time: "" }, /--time must be a time in seconds/],
    [{ time: "-2" }, /--time must be a time in seconds, 0 or more \(got -2\)/],
    [{ frames: "9-3" }, /--frames 9-3 ends before it starts/],
    [{ frames: "a-b" }, /--frames must be a range of frame numbers such as 30-59/],
    [{ frame: "1", time: "2" }, /--frame and --time cannot be combined/],
  ])("refuses %j", (flags, message) => {
    expect(() => selectFrames(flags, 30)).toThrow(message);
  });
});
