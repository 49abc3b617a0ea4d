import { copyFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { OutputFormat } from "@compose/core";
import { concatArgs, muxArgs } from "./join-args.js";
import { runFfmpeg } from "../common/ffmpeg-process.js";
import { writeConcatList } from "./concat-list.js";

/**
 * Turns encoded video parts (in frame order, each starting on its own keyframe) and the mixed
 * audio into one file, without re-encoding: the parts joined by ffmpeg's concat demuxer, then
 * the audio muxed in. `scratch` holds the list and the silent video in between. One silent part
 * is the output as it is, copied since the parts stay their owner's.
 */
export async function joinVideo(
  parts: readonly string[],
  format: OutputFormat,
  audioFile: string | undefined,
  output: string,
  scratch: string,
  signal?: AbortSignal,
): Promise<void> {
  let video = parts[0]!;
  if (parts.length > 1) {
    const listFile = await writeConcatList(parts, scratch);
    video = audioFile ? join(scratch, `joined${extname(output)}`) : output;
    await runFfmpeg(concatArgs(listFile, format, video), signal);
  }
  if (audioFile) await runFfmpeg(muxArgs(video, audioFile, format, output), signal);
  else if (parts.length === 1) await copyFile(video, output);
}
