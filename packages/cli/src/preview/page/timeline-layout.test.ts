import type { TimelineEntry } from "@compose/runtime";
import { describe, expect, it } from "vitest";
import { describeEntry, rulerTicks, timelineLanes } from "./timeline-layout.js";

const clip = (label: string, track: number | undefined, start: number | undefined, duration?: number, children?: TimelineEntry[]): TimelineEntry => ({
  kind: children ? "composition" : "clip",
  label,
  track,
  start,
  duration,
  ...(children ? { children } : {}),
});

describe("the timeline's layout", () => {
  const entries = [
    clip("b", 2, 0, 1),
    clip("a", 0, 0.5, 1),
    clip("loose", undefined, 0),
    clip("unresolved", 0, undefined),
    clip("card", 0, 1, 2, [clip("inner", 0, 1.2, 0.3)]),
  ];

  it("gives each track a lane in order, untracked last, and leaves out what has no start", () => {
    const lanes = timelineLanes(entries, new Set());
    expect(lanes.map((lane) => [lane.label, lane.items.map((item) => item.entry.label)])).toEqual([
      ["track 0", ["a", "card"]],
      ["track 2", ["b"]],
      ["no track", ["loose"]],
    ]);
  });

  it("unfolds an expanded instance right under its lane, with keys that name it", () => {
    const lanes = timelineLanes(entries, new Set(["4"]));
    expect(lanes.map((lane) => [lane.label, lane.depth, lane.items.map((item) => item.key)])).toEqual([
      ["track 0", 0, ["1", "4"]],
      ["card › track 0", 1, ["4/0"]],
      ["track 2", 0, ["0"]],
      ["no track", 0, ["2"]],
    ]);
  });

  it("spaces ruler labels at the first step that leaves room", () => {
    expect(rulerTicks(2, 100)).toEqual([
      { seconds: 0, left: 0 },
      { seconds: 1, left: 100 },
      { seconds: 2, left: 200 },
    ]);
    expect(rulerTicks(1, 300).map((tick) => tick.seconds)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it("describes a clip with its start, duration, track and source", () => {
    expect(describeEntry({ ...clip("music", 1, 0.2), kind: "audio", src: "http://x/music.mp3" }, () => "/music.mp3")).toBe(
      "music (audio), start 0.200 s, duration to the end, track 1, source /music.mp3",
    );
  });
});
