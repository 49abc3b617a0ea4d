import type { PaletteEncoding } from "@compose/core";
import type { PaletteOutput } from "../2-plan/render-plan.js";
import { concatListInput } from "./join-args.js";

/** An on/off filter option, as ffmpeg takes it. */
function flag(on: boolean): string {
  return on ? "1" : "0";
}

/** The first pass: one palette from every frame of the parts, written as a 16x16 PNG. */
export function paletteArgs(listFile: string, encoding: PaletteEncoding, palette: string): string[] {
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    ...concatListInput(listFile),
    "-vf",
    `palettegen=stats_mode=${encoding.statsMode}:reserve_transparent=${flag(encoding.reserveTransparent)}`,
    palette,
  ];
}

/**
 * A frame's delay in a GIF is whole hundredths of a second. ffmpeg gives each frame the start
 * nearest its own, `round(n x 100 / fps)` hundredths, so the delays alternate (24 fps: 4, 4, 5,
 * 4, ...) and keep the rate on average; the last frame would repeat the delay before it, so it is
 * given what is left of the whole, and the GIF lasts `frames / fps` to the nearest hundredth.
 */
export function lastFrameDelay(fps: number, frames: number): number {
  const start = (frame: number) => Math.round((frame * 100) / fps);
  return start(frames) - start(frames - 1);
}

function ditherOptions(encoding: PaletteEncoding): string {
  return encoding.dither === "bayer" ? `dither=bayer:bayer_scale=${encoding.bayerScale}` : `dither=${encoding.dither}`;
}

/**
 * The second pass: every frame of the parts mapped to the palette (input 1), timed by its index
 * (the parts' own timestamps are joined by the demuxer, which need not keep them exact), and
 * written with the loop count.
 */
export function paletteUseArgs(listFile: string, palette: string, encoding: PaletteEncoding, output: PaletteOutput, file: string): string[] {
  const use = [ditherOptions(encoding), `alpha_threshold=${encoding.alphaThreshold}`, ...(encoding.changedRectangleOnly ? ["diff_mode=rectangle"] : [])].join(
    ":",
  );
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    ...concatListInput(listFile),
    "-i",
    palette,
    "-lavfi",
    `[0:v]setpts=N/${output.fps}/TB[frames];[frames][1:v]paletteuse=${use}`,
    "-frames:v",
    String(output.frames),
    "-c:v",
    encoding.codec,
    "-loop",
    String(output.loop),
    "-final_delay",
    String(lastFrameDelay(output.fps, output.frames)),
    "-f",
    encoding.container,
    file,
  ];
}
