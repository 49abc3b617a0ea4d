import type { CDPSession } from "puppeteer-core";
import type { QualityName } from "@compose/core";
import type { FrameImageFormat } from "../encode/encoder-args.js";

/**
 * JPEG quality of mp4 frames per preset. Encoding the JPEG costs the browser more than drawing
 * the frame (at 1920x1080: about 36 ms to draw, 40 ms more at quality 80, 50 ms at 90), so each
 * preset pays only for what its CRF can keep.
 */
const JPEG_QUALITY: Record<QualityName, number> = { draft: 70, standard: 80, high: 92 };

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
): FrameCapturer {
  const screenshot = image === "jpeg"
    ? { format: "jpeg" as const, quality: JPEG_QUALITY[quality], optimizeForSpeed: true }
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
