import { FORMAT_TABLE, type FormatFacts, type OutputFormat } from "@compose/core";

/** How frames leave the browser: JPEG for opaque H.264, PNG with alpha for every other format. */
export type FrameImageFormat = FormatFacts["frameImage"];

export function frameImageFormat(format: OutputFormat): FrameImageFormat {
  return FORMAT_TABLE[format].frameImage;
}
