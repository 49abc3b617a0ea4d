import type { OutputFormat } from "@compose/core";

/** How frames leave the browser: JPEG for opaque H.264, PNG with alpha for every other format. */
export type FrameImageFormat = "jpeg" | "png";

export function frameImageFormat(format: OutputFormat): FrameImageFormat {
  return format === "mp4" ? "jpeg" : "png";
}
