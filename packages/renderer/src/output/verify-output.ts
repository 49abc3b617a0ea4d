import { execFile } from "node:child_process";
import { open, readdir, statfs } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isFolderOutput, type OutputFormat } from "@compose/core";
import { RenderError, throwIfAborted } from "../common/render-error.js";
import { toolPath } from "../common/tool-paths.js";
import { isSequenceFrameName, SEQUENCE_AUDIO_FILE, SEQUENCE_FRAME_PATTERN } from "./output-names.js";
import { outputSize } from "./output-size.js";
import type { StagedOutput } from "./staged-output.js";

/** What a render's output must hold to be called done. */
export interface OutputExpectation {
  format: OutputFormat;
  frames: number;
  fps: number;
  /** Whether the composition's mixed audio is in it (muxed, or beside a png-sequence's frames). */
  audio: boolean;
  /** One frame as one PNG file. */
  still?: boolean;
}

/**
 * How deeply an output is read: `packets` demuxes it whole (the container parses, every packet
 * its index names is there), which a render's own fresh output needs; `frames` decodes every
 * frame too, for a part that crossed shared storage and may be damaged inside.
 */
export type VerifyDepth = "packets" | "frames";

interface ProbeJson {
  format?: { duration?: string };
  streams?: Array<{ codec_type?: string; nb_read_frames?: string; nb_read_packets?: string; duration?: string }>;
}

function probe(args: string[], signal: AbortSignal | undefined): Promise<ProbeJson> {
  return new Promise((resolve, reject) => {
    execFile(toolPath("ffprobe"), ["-v", "error", ...args, "-of", "json"], { maxBuffer: 1 << 20, signal }, (error, stdout, stderr) => {
      if (error) return reject(new Error(stderr.trim().split("\n").pop() || error.message));
      resolve(JSON.parse(stdout) as ProbeJson);
    });
  });
}

/** The PNG signature's end: the IEND chunk's length, type and CRC, always these 12 bytes. */
const PNG_END = Buffer.from("0000000049454e44ae426082", "hex");

/** Whether a PNG file ends as a whole one does: a file cut short by a full disk does not. */
async function pngIsWhole(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size < PNG_END.length) return false;
    const end = Buffer.alloc(PNG_END.length);
    await handle.read(end, 0, end.length, size - end.length);
    return end.equals(PNG_END);
  } finally {
    await handle.close();
  }
}

async function sequenceProblem(
  dir: string,
  expected: OutputExpectation,
  depth: VerifyDepth,
  shown: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const all = await readdir(dir).catch(() => []);
  const names = all.filter(isSequenceFrameName).sort();
  if (names.length !== expected.frames) return `it holds ${names.length} frame files, not ${shown}`;
  for (const name of names) {
    if (!(await pngIsWhole(join(dir, name)))) return `its frame ${name} is cut short`;
  }
  if (depth === "frames") {
    const first = Number(names[0]!.match(/\d+/)![0]);
    const input = ["-f", "image2", "-framerate", String(expected.fps), "-start_number", String(first), "-i", join(dir, SEQUENCE_FRAME_PATTERN)];
    const counted = await countVideo(input, depth, signal).catch((error: Error) => `it cannot be decoded (${error.message})`);
    if (typeof counted === "string") return counted;
    if (counted.frames !== expected.frames) return `it holds ${counted.frames} decodable frames, not ${shown}`;
  }
  if (expected.audio) {
    const audio = join(dir, SEQUENCE_AUDIO_FILE);
    const streams = await probe(["-count_packets", "-show_entries", "stream=codec_type,nb_read_packets", audio], signal).catch(() => undefined);
    const packets = Number(streams?.streams?.find((stream) => stream.codec_type === "audio")?.nb_read_packets ?? 0);
    if (!(packets > 0)) return `its audio ${SEQUENCE_AUDIO_FILE} is missing or cannot be read`;
  }
  return undefined;
}

async function countVideo(input: string[], depth: VerifyDepth, signal: AbortSignal | undefined): Promise<{ frames: number; seconds: number; audio: boolean }> {
  const count = depth === "frames" ? "-count_frames" : "-count_packets";
  const json = await probe([count, "-show_entries", "stream=codec_type,nb_read_frames,nb_read_packets,duration:format=duration", ...input], signal);
  const video = json.streams?.find((stream) => stream.codec_type === "video");
  const frames = Number((depth === "frames" ? video?.nb_read_frames : video?.nb_read_packets) ?? 0) || 0;
  const seconds = Number(video?.duration ?? json.format?.duration ?? 0) || 0;
  return { frames, seconds, audio: json.streams?.some((stream) => stream.codec_type === "audio") ?? false };
}

/**
 * What is wrong with an output, read back from what was written: undefined when it holds exactly
 * the expected frames (lasting `frames / fps` seconds, within a frame) and the audio when there is
 * some, else one line saying what it holds.
 */
export async function outputProblem(path: string, expected: OutputExpectation, depth: VerifyDepth, signal?: AbortSignal): Promise<string | undefined> {
  const shown = `${expected.frames} frames (${(expected.frames / expected.fps).toFixed(2)} s)`;
  if (expected.still) return (await pngIsWhole(path).catch(() => false)) ? undefined : "it is not a whole PNG file";
  if (isFolderOutput(expected.format)) return sequenceProblem(path, expected, depth, shown, signal);
  let counted: Awaited<ReturnType<typeof countVideo>>;
  try {
    counted = await countVideo([path], depth, signal);
  } catch (error) {
    return `it cannot be read (${(error as Error).message})`;
  }
  const what = depth === "frames" ? "decodable frames" : "frames";
  if (counted.frames !== expected.frames || Math.abs(counted.seconds - expected.frames / expected.fps) > 1 / expected.fps) {
    return `it holds ${counted.frames} ${what} (${counted.seconds.toFixed(2)} s), not ${shown}`;
  }
  if (expected.audio && !counted.audio) return "it has no audio stream, though the composition's audio was mixed into it";
  return undefined;
}

/** Below this much free space, an output that reads back wrong is taken to have met a full disk. */
const NEARLY_FULL_BYTES = 4 * 1024 * 1024;

/**
 * Fails the render unless its staged output reads back whole (outputProblem): a disk that filled
 * while it was written is `disk-full`, anything else `encode-failed`. `shown` names the output.
 */
async function verifyOutput(staged: string, shown: string, expected: OutputExpectation, signal: AbortSignal | undefined): Promise<void> {
  const problem = await outputProblem(staged, expected, "packets", signal);
  if (problem === undefined) return;
  throwIfAborted(signal);
  const space = await statfs(isFolderOutput(expected.format) && !expected.still ? staged : dirname(staged)).catch(() => undefined);
  if (space && space.bavail * space.bsize < NEARLY_FULL_BYTES) {
    throw new RenderError("disk-full", `cannot write ${shown}: no space is left on its disk (${problem}); free some space or write the output elsewhere`);
  }
  throw new RenderError("encode-failed", `the output ${shown} is not whole: ${problem}`);
}

/**
 * The end of every render's output: what was staged is read back (verifyOutput) and only then
 * renamed into place at `output`. Returns its size in bytes.
 */
export async function commitWhenWhole(staged: StagedOutput, output: string, expected: OutputExpectation, signal?: AbortSignal): Promise<number> {
  await verifyOutput(staged.result, output, expected, signal);
  throwIfAborted(signal);
  await staged.commit();
  return outputSize(output);
}
