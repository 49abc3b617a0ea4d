import { describe, expect, it } from "vitest";
import type { MediaInput } from "./media-input.js";
import { probeArgs } from "./probe-source.js";

describe("probeArgs", () => {
  it.each<[string, MediaInput, string[]]>([
    ["a file", { location: "clip.mp4" }, ["clip.mp4"]],
    ["a URL", { location: "https://cdn.example.com/a b.webm" }, ["https://cdn.example.com/a b.webm"]],
    [
      "a URL through the policy proxy",
      { location: "https://cdn.example.com/a.webm", proxy: "http://127.0.0.1:4100" },
      ["-http_proxy", "http://127.0.0.1:4100", "https://cdn.example.com/a.webm"],
    ],
  ])("%s: the length, and each stream's kind, length, colour, height, channel count and cover-art flag, as JSON", (_, input, opening) => {
    expect(probeArgs(input)).toEqual([
      "-v",
      "error",
      "-show_entries",
      "format=duration:stream=codec_type,duration,color_transfer,color_space,color_range,pix_fmt,height,channels:stream_disposition=attached_pic",
      "-of",
      "json",
      ...opening,
    ]);
  });
});
