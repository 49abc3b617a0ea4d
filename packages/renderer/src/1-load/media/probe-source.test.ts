import { describe, expect, it } from "vitest";
import { probeArgs } from "./probe-source.js";

describe("probeArgs", () => {
  it.each(["clip.mp4", "https://cdn.example.com/a b.webm"])("%s: the length, and each stream's kind, length, transfer and cover-art flag, as JSON", (input) => {
    expect(probeArgs(input)).toEqual([
      "-v", "error",
      "-show_entries", "format=duration:stream=codec_type,duration,color_transfer:stream_disposition=attached_pic",
      "-of", "json",
      input,
    ]);
  });
});
