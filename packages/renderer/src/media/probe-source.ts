import { execFile } from "node:child_process";
import { RenderError } from "../common/render-error.js";
import { toolPath } from "../common/tool-paths.js";
import { inputOptions, type MediaInput } from "./media-input.js";
import { sourceColour, type ProbedColour, type SourceColour } from "./source-colour.js";

export function ffprobePath(): string {
  return toolPath("ffprobe");
}

/** ffprobe's facts of a source as JSON: its length, and each stream's kind, length, colour, height, channel count and cover-art flag. */
export function probeArgs(input: MediaInput): string[] {
  return [
    "-v",
    "error",
    "-show_entries",
    "format=duration:stream=codec_type,duration,color_transfer,color_space,color_range,pix_fmt,height,channels:stream_disposition=attached_pic",
    "-of",
    "json",
    ...inputOptions(input),
    input.location,
  ];
}

export type HdrTransfer = "pq" | "hlg";

export interface SourceFacts {
  /** Seconds; the container's duration, else the longest stream's. */
  duration: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /** Channels of the first audio stream (the one the mix reads); 0 without audio. */
  audioChannels: number;
  /** Set when the video stream is PQ (smpte2084) or HLG (arib-std-b67). */
  hdr?: HdrTransfer;
  /** The video stream's matrix and range. */
  colour?: SourceColour;
}

interface ProbeJson {
  format?: { duration?: string };
  streams?: Array<
    ProbedColour & { codec_type?: string; duration?: string; color_transfer?: string; channels?: number; disposition?: { attached_pic?: number } }
  >;
}

const HDR_TRANSFERS: Record<string, HdrTransfer> = { smpte2084: "pq", "arib-std-b67": "hlg" };

function run(input: MediaInput): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(ffprobePath(), probeArgs(input), { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        return reject(
          new RenderError("ffmpeg-missing", "ffprobe was not found: install it with `sudo apt-get install ffmpeg` or set COMPOSE_FFPROBE to its path"),
        );
      }
      const reason = stderr.trim().split("\n").pop() || error.message;
      reject(new Error(reason.replace(`${input.location}: `, "")));
    });
  });
}

/** Reads what rendering needs to know of a media file; rejects with ffprobe's reason when it cannot be decoded. */
export async function probeSource(input: MediaInput): Promise<SourceFacts> {
  const json = JSON.parse(await run(input)) as ProbeJson;
  const streams = json.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === "video" && !stream.disposition?.attached_pic);
  const audio = streams.find((stream) => stream.codec_type === "audio");
  const hasAudio = audio !== undefined;
  const durations = [json.format?.duration, ...streams.map((stream) => stream.duration)].map(Number).filter((value) => Number.isFinite(value) && value > 0);
  if (!video && !hasAudio) throw new Error("it has neither a video nor an audio stream");
  if (durations.length === 0) throw new Error("its duration cannot be read");
  const hdr = video?.color_transfer ? HDR_TRANSFERS[video.color_transfer] : undefined;
  return {
    duration: Number(json.format?.duration) || Math.max(...durations),
    hasVideo: Boolean(video),
    hasAudio,
    audioChannels: audio?.channels ?? 0,
    ...(hdr ? { hdr } : {}),
    ...(video ? { colour: sourceColour(video) } : {}),
  };
}
