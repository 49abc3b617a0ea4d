import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { OutputFormat } from "@compose/core";
import { ffprobePath } from "../1-load/media/probe-source.js";
import { isSequenceFrameName, SEQUENCE_FRAME_PATTERN } from "../output/output-names.js";

interface CountJson {
  format?: { duration?: string };
  streams?: Array<{ nb_read_frames?: string; duration?: string }>;
}

/** ffprobe decodes every frame of the first video stream (`-count_frames`) and reports the count and the duration. */
function countDecodedFrames(inputArgs: string[], signal: AbortSignal | undefined): Promise<{ frames: number; seconds: number }> {
  const args = ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames,duration:format=duration", "-of", "json", ...inputArgs];
  return new Promise((resolve, reject) => {
    execFile(ffprobePath(), args, { maxBuffer: 1 << 20, signal }, (error, stdout, stderr) => {
      if (error) return reject(new Error(stderr.trim().split("\n").pop() || error.message));
      const json = JSON.parse(stdout) as CountJson;
      const stream = json.streams?.[0];
      resolve({ frames: Number(stream?.nb_read_frames ?? 0) || 0, seconds: Number(stream?.duration ?? json.format?.duration ?? 0) || 0 });
    });
  });
}

/**
 * What is wrong with one chunk of a distributed render, read by decoding it: undefined when it
 * holds exactly `frames` decodable frames lasting `frames / fps` seconds (within a frame), else
 * one line saying what it holds. A file that was cut short or damaged after its render ended has
 * the right size for nothing, so its frames are counted, not its bytes.
 */
export async function chunkProblem(chunk: string, format: OutputFormat, frames: number, fps: number, signal?: AbortSignal): Promise<string | undefined> {
  const expected = `${frames} frames (${(frames / fps).toFixed(2)} s)`;
  let input: string[];
  if (format === "png-sequence") {
    const names = await readdir(chunk).then((all) => all.filter(isSequenceFrameName).sort(), () => []);
    if (names.length !== frames) return `it holds ${names.length} frame files, not ${expected}`;
    const first = Number(names[0]!.match(/\d+/)![0]);
    input = ["-f", "image2", "-framerate", String(fps), "-start_number", String(first), "-i", join(chunk, SEQUENCE_FRAME_PATTERN)];
  } else {
    input = [chunk];
  }
  let counted: { frames: number; seconds: number };
  try {
    counted = await countDecodedFrames(input, signal);
  } catch (error) {
    return `it cannot be decoded (${(error as Error).message})`;
  }
  if (format === "png-sequence") counted.seconds = counted.frames / fps;
  if (counted.frames === frames && Math.abs(counted.seconds - frames / fps) <= 1 / fps) return undefined;
  return `it holds ${counted.frames} decodable frames (${counted.seconds.toFixed(2)} s), not ${expected}`;
}
