import { describe, expect, it } from "vitest";
import { signalStatsArgs } from "./flat-frames.js";

describe("signalStatsArgs", () => {
  it.each<[string, "mp4" | "mov" | "webm" | "png-sequence", string[]]>([
    ["out.mp4", "mp4", ["-i", "out.mp4"]],
    ["out.webm", "webm", ["-i", "out.webm"]],
    ["out.mov", "mov", ["-i", "out.mov"]],
    ["frames", "png-sequence", ["-f", "image2", "-i", "frames/frame_%06d.png"]],
  ])("%s (%s): every frame's plane statistics printed to stdout, audio ignored", (output, format, input) => {
    expect(signalStatsArgs(output, format)).toEqual([
      "-v",
      "error",
      ...input,
      "-an",
      "-vf",
      "signalstats,metadata=mode=print:file='pipe\\:1'",
      "-f",
      "null",
      "-",
    ]);
  });
});
