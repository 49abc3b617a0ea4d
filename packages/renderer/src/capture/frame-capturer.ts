import type { CDPSession } from "puppeteer-core";
import type { FrameImageFormat } from "../encode/encoder-args.js";

/**
 * JPEG quality of mp4 frames: measured as the point where capture cost stops paying off
 * against what x264 at CRF 15-18 can still preserve.
 */
const JPEG_QUALITY = 90;

/**
 * BeginFrame asks the compositor for exactly one frame with everything drawn, which makes the
 * capture deterministic; screenshot capture works in any headless mode and is the fallback.
 */
export type CaptureMode = "beginframe" | "screenshot";

export type FrameCapturer = () => Promise<Buffer>;

export function createFrameCapturer(cdp: CDPSession, mode: CaptureMode, image: FrameImageFormat): FrameCapturer {
  const screenshot = image === "jpeg"
    ? { format: "jpeg" as const, quality: JPEG_QUALITY, optimizeForSpeed: true }
    : { format: "png" as const, optimizeForSpeed: true };
  if (mode === "beginframe") {
    return async () => {
      const { screenshotData } = await cdp.send("HeadlessExperimental.beginFrame", { screenshot });
      if (!screenshotData) throw new Error("the browser produced no frame for a BeginFrame request");
      return Buffer.from(screenshotData, "base64");
    };
  }
  return async () => {
    const { data } = await cdp.send("Page.captureScreenshot", { ...screenshot, captureBeyondViewport: false });
    return Buffer.from(data, "base64");
  };
}
