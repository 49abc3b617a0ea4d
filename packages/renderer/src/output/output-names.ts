import { FOLDER_FORMAT, FORMAT_TABLE, partExtension, type OutputFormat } from "@compose/core";

/** The png-sequence names: `frame_000042.png`, zero-padded to six digits, numbered from 0. */
export const SEQUENCE_FRAME_PATTERN = "frame_%06d.png";

const SEQUENCE_FRAME_NAME = /^frame_\d+\.png$/;

/** `frame_000042.png`: the name SEQUENCE_FRAME_PATTERN gives output frame `index`. */
export function sequenceFrameName(index: number): string {
  return SEQUENCE_FRAME_PATTERN.replace("%06d", String(index).padStart(6, "0"));
}

export function isSequenceFrameName(name: string): boolean {
  return SEQUENCE_FRAME_NAME.test(name);
}

/** The mixed audio's file: muxed into a video, or beside the frames of a png-sequence; none for a format without sound. */
export function audioFileName(format: OutputFormat): string | undefined {
  return FORMAT_TABLE[format].audio?.file;
}

/** The mixed audio's file beside the frames of a png-sequence. */
export const SEQUENCE_AUDIO_FILE = audioFileName(FOLDER_FORMAT)!;

/**
 * `chunk-00003.mp4`: the part chunk `index` of a render split across machines is encoded into (a
 * folder for png-sequence; a paletted format's lossless part).
 */
export function chunkFileName(index: number, format: OutputFormat): string {
  return `chunk-${String(index).padStart(5, "0")}${partExtension(format)}`;
}
