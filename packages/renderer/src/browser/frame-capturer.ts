import type { CDPSession } from "puppeteer-core";
import type { QualityName } from "@compose/core";
import type { FrameImageFormat } from "../encode/encoder-args.js";

/**
 * JPEG quality of mp4 frames per preset: the lowest at which the output stays within 1 dB of
 * what x264 makes from lossless frames at the preset's CRF, small text included; each step up
 * costs capture and x264 time (docs/fidelity.md has the figures).
 * Chromium's JPEGs are 4:2:0 at any quality, like the H.264 they become, so the quality only
 * decides how much detail the JPEG itself throws away before x264 sees it.
 */
const JPEG_QUALITY: Record<QualityName, number> = { draft: 90, standard: 90, high: 95 };

/**
 * BeginFrame asks the compositor for exactly one frame with everything drawn, which makes the
 * capture deterministic; screenshot capture works in any headless mode and is the fallback.
 */
export type CaptureMode = "beginframe" | "screenshot";

export type FrameCapturer = () => Promise<Buffer>;

/** How many BeginFrames a new page may take to draw its first frame. */
const FIRST_FRAME_ATTEMPTS = 5;

export function createFrameCapturer(
  cdp: CDPSession,
  mode: CaptureMode,
  image: FrameImageFormat,
  quality: QualityName,
  jpegQuality = JPEG_QUALITY[quality],
): FrameCapturer {
  const screenshot = image === "jpeg"
    ? { format: "jpeg" as const, quality: jpegQuality, optimizeForSpeed: true }
    : { format: "png" as const, optimizeForSpeed: true };
  if (mode === "beginframe") {
    let previous: Buffer | undefined;
    return async () => {
      // A frame without damage comes without a screenshot: it is the previous frame. A page's
      // first frames may have none yet, so those are asked for again.
      for (let attempt = 0; attempt < FIRST_FRAME_ATTEMPTS; attempt++) {
        const { screenshotData } = await cdp.send("HeadlessExperimental.beginFrame", { screenshot });
        if (screenshotData) return (previous = Buffer.from(screenshotData, "base64"));
        if (previous) return previous;
      }
      throw new Error("the browser produced no frame for a BeginFrame request");
    };
  }
  return async () => {
    const { data } = await cdp.send("Page.captureScreenshot", { ...screenshot, captureBeyondViewport: false });
    return Buffer.from(data, "base64");
  };
}
