import { describe, expect, it } from "vitest";
import { paletteEncoding } from "@compose/core";
import { lastFrameDelay, paletteArgs, paletteUseArgs } from "./palette-args.js";

const gif = paletteEncoding("gif")!;

/** The value after `flag`, or undefined when the flag is absent. */
function option(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
}

describe("paletteArgs", () => {
  it("reads every part through the concat demuxer and writes one palette from all their frames, an entry kept for transparency", () => {
    expect(paletteArgs("/w/parts.txt", gif, "/w/palette.png")).toEqual([
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      "/w/parts.txt",
      "-vf",
      "palettegen=stats_mode=full:reserve_transparent=1",
      "/w/palette.png",
    ]);
  });
});

describe("paletteUseArgs", () => {
  it.each<[string, { fps: number; frames: number; loop: number }, Record<string, string>]>([
    ["30 fps, 1 s, repeating forever", { fps: 30, frames: 30, loop: 0 }, { "-loop": "0", "-final_delay": "3", "-frames:v": "30" }],
    ["24 fps, 2 s, played once", { fps: 24, frames: 48, loop: -1 }, { "-loop": "-1", "-final_delay": "4", "-frames:v": "48" }],
    ["30 fps, 1.5 s, repeated 3 times after the first", { fps: 30, frames: 45, loop: 3 }, { "-loop": "3", "-final_delay": "3", "-frames:v": "45" }],
  ])("%s", (_name, output, expected) => {
    const args = paletteUseArgs("/w/parts.txt", "/w/palette.png", gif, output, "/out/a.gif");
    expect(args.slice(4, 12)).toEqual(["-f", "concat", "-safe", "0", "-i", "/w/parts.txt", "-i", "/w/palette.png"]);
    expect(option(args, "-lavfi")).toBe(
      `[0:v]setpts=N/${output.fps}/TB[frames];[frames][1:v]paletteuse=dither=floyd_steinberg:alpha_threshold=128:diff_mode=rectangle`,
    );
    for (const [flag, value] of Object.entries(expected)) expect(option(args, flag), flag).toBe(value);
    expect(option(args, "-c:v")).toBe("gif");
    expect(args.slice(-3)).toEqual(["-f", "gif", "/out/a.gif"]);
  });

  it("spells ordered dithering with its pattern's strength", () => {
    const args = paletteUseArgs("l", "p", { ...gif, dither: "bayer", bayerScale: 3, changedRectangleOnly: false }, { fps: 30, frames: 1, loop: 0 }, "o");
    expect(option(args, "-lavfi")).toBe("[0:v]setpts=N/30/TB[frames];[frames][1:v]paletteuse=dither=bayer:bayer_scale=3:alpha_threshold=128");
  });
});

describe("lastFrameDelay", () => {
  it.each([
    // Frame starts round(n x 100 / fps): at 24 fps 0, 4, 8, 13, 17, ...; the last delay keeps the total at frames / fps.
    [24, 24, 4],
    [24, 12, 4],
    [24, 3, 5],
    [30, 30, 3],
    [30, 45, 3],
    [30, 2, 4],
    [30, 1, 3],
  ])("%i fps, %i frames: %i hundredths", (fps, frames, delay) => {
    expect(lastFrameDelay(fps, frames)).toBe(delay);
  });
});
