import type { OutputFormat } from "@compose/core";
import { containerArgs } from "../4-encode/encoder-args.js";

/** Parts in order as one input: ffmpeg's concat demuxer reading their list (concat-list.ts). */
export function concatListInput(listFile: string): string[] {
  return ["-f", "concat", "-safe", "0", "-i", listFile];
}

/** Joins chunks encoded with identical settings, without re-encoding. */
export function concatArgs(listFile: string, format: OutputFormat, output: string): string[] {
  return ["-hide_banner", "-loglevel", "error", "-y", ...concatListInput(listFile), "-c", "copy", ...containerArgs(format), output];
}

/** Puts the mixed audio beside the encoded video in the final container, without re-encoding either. */
export function muxArgs(video: string, audio: string, format: OutputFormat, output: string): string[] {
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-i",
    video,
    "-i",
    audio,
    "-map",
    "0:v:0",
    "-map",
    "1:a:0",
    "-c",
    "copy",
    ...containerArgs(format),
    output,
  ];
}
