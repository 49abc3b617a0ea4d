import { describe, expect, it } from "vitest";
import { concatArgs, muxArgs } from "./join-args.js";

describe("muxArgs and concatArgs", () => {
  it.each<[string, string[]]>([
    ["mp4", ["-movflags", "+faststart"]],
    ["mov", ["-movflags", "+faststart"]],
    ["webm", []],
  ])("%s: streams copied, never re-encoded; the index up front where the container has one", (format, container) => {
    expect(muxArgs("video.x", "audio.x", format as "mp4", "out.x")).toEqual([
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-i",
      "video.x",
      "-i",
      "audio.x",
      "-map",
      "0:v:0",
      "-map",
      "1:a:0",
      "-c",
      "copy",
      ...container,
      "out.x",
    ]);
    expect(concatArgs("parts.txt", format as "mp4", "out.x")).toEqual([
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      "parts.txt",
      "-c",
      "copy",
      ...container,
      "out.x",
    ]);
  });
});
