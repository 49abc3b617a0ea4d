/**
 * Picture fidelity as docs/fidelity.md defines it: the RGB PSNR of an output against the lossless
 * frames of the same composition (a png-sequence render), next to the ideal, which is what the
 * format's encoder makes from those lossless frames at the same quality preset, converted exactly
 * to the file's own matrix and range.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { QualityName } from "@compose/core";
import { colourConversion, videoCodecArgs } from "../../packages/renderer/src/4-encode/encoder-args.js";
import { SEQUENCE_FRAME_PATTERN } from "../../packages/renderer/src/output/output-names.js";

const run = promisify(execFile);
const EXACT = "accurate_rnd+full_chroma_int+bitexact";

export type VideoFormat = "mp4" | "webm" | "mov";

/** The filter that turns the pixels of `file` into `pixelFormat` (an RGB format) as its own colour tags say. */
export async function taggedRgbFilter(file: string, pixelFormat = "gbrp"): Promise<string> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_space,color_range", "-of", "json", file]);
  const stream = (JSON.parse(stdout) as { streams: Array<{ color_space?: string; color_range?: string }> }).streams[0];
  const matrix = stream?.color_space === "bt709" ? "bt709" : "bt601";
  const range = stream?.color_range === "pc" ? "full" : "limited";
  return `scale=in_color_matrix=${matrix}:in_range=${range}:out_range=full:flags=${EXACT},format=${pixelFormat}`;
}

/**
 * RGB PSNR in dB of `video` from frame `firstFrame` on against the png-sequence in `frames`
 * (frame_NNNNNN.png from 0), over as many frames as both have: from the mean squared error over
 * every pixel and channel of the compared frames; alpha is ignored.
 */
export async function rgbPsnr(video: string, frames: string, fps: number, firstFrame = 0): Promise<number> {
  return (await rgbPsnrs([video], frames, fps, firstFrame))[0]!;
}

/** rgbPsnr of each of `videos`, in one ffmpeg run that decodes the lossless frames once for all. */
export async function rgbPsnrs(videos: string[], frames: string, fps: number, firstFrame = 0): Promise<number[]> {
  // Frames are paired by their number: webm's millisecond timestamps are not exact thirtieths.
  const byNumber = `settb=1/${fps},setpts=N`;
  const conversions = await Promise.all(videos.map((video) => taggedRgbFilter(video)));
  const references = videos.map((_, i) => `[r${i}]`).join("");
  const graph = [
    `[${videos.length}:v]${byNumber},format=gbrp,split=${videos.length}${references}`,
    ...videos.map((_, i) => `[${i}:v]trim=start_frame=${firstFrame},${byNumber},${conversions[i]}[v${i}];[v${i}][r${i}]psnr=shortest=1`),
  ];
  const { stderr } = await run(
    "ffmpeg",
    [
      "-hide_banner",
      "-nostats",
      ...videos.flatMap((video) => ["-i", video]),
      "-framerate",
      String(fps),
      "-i",
      `${frames}/${SEQUENCE_FRAME_PATTERN}`,
      "-lavfi",
      graph.join(";"),
      "-f",
      "null",
      "-",
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // Each psnr filter reports as Parsed_psnr_<its place in the graph>, which follows the videos' order.
  const averages = [...stderr.matchAll(/\[Parsed_psnr_(\d+) @ [^\]]*\] PSNR .*average:(\S+)/g)]
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((match) => (match[2] === "inf" ? Infinity : Number(match[2])));
  if (averages.length !== videos.length) throw new Error(`ffmpeg printed ${averages.length} PSNRs for ${videos.length} videos: ${stderr}`);
  return averages;
}

/** The ideal encode: the format's encoder at `quality` on the lossless frames, converted exactly. */
export async function encodeIdeal(frames: string, format: VideoFormat, quality: QualityName, fps: number, output: string): Promise<void> {
  await encodeIdeals(frames, fps, [{ format, quality, output }]);
}

/** The ideal encode of each of `outputs`, in one ffmpeg run that decodes the lossless frames once for all. */
export async function encodeIdeals(frames: string, fps: number, outputs: Array<{ format: VideoFormat; quality: QualityName; output: string }>): Promise<void> {
  await run("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-framerate",
    String(fps),
    "-i",
    `${frames}/${SEQUENCE_FRAME_PATTERN}`,
    ...outputs.flatMap(({ format, quality, output }) => {
      const settings = { format, quality, fps, width: 0, height: 0 };
      return ["-vf", colourConversion(settings, "png")!, ...videoCodecArgs(settings), output];
    }),
  ]);
}
