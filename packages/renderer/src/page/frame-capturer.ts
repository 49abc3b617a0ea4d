import type { CDPSession } from "puppeteer-core";
import { REPEAT, type FrameResult } from "../common/frame-result.js";
import type { FrameImageFormat } from "../common/frame-image.js";

/**
 * BeginFrame asks the compositor for exactly one frame with everything drawn, which makes the
 * capture deterministic; screenshot capture works in any headless mode and is the fallback.
 */
export type CaptureMode = "beginframe" | "screenshot";

/** How a frame's image leaves the browser. */
export interface FrameImageSettings {
  image: FrameImageFormat;
  /** For JPEG: Chromium's JPEGs are 4:2:0 at any quality, so it only decides how much detail is lost. */
  jpegQuality: number;
}

/** Takes the page's current frame; `restart` forgets what was drawn before (a reloaded page). */
export interface FrameCapturer {
  take(settings: FrameImageSettings): Promise<FrameResult>;
  /**
   * Takes the page's current frame as an image, never a repeat: what follows frames this page did
   * not draw itself (another row's), which a repeat would wrongly continue.
   */
  takeImage(settings: FrameImageSettings): Promise<FrameResult & { kind: "image" }>;
  /** Whether an image was taken since the start, so that a repeat has something to repeat. */
  readonly drawn: boolean;
  restart(): void;
}

/** How many BeginFrames a new page may take to draw its first frame. */
const FIRST_FRAME_ATTEMPTS = 5;

function screenshotOf(settings: FrameImageSettings) {
  return settings.image === "jpeg"
    ? { format: "jpeg" as const, quality: settings.jpegQuality, optimizeForSpeed: true }
    : { format: "png" as const, optimizeForSpeed: true };
}

export function createFrameCapturer(cdp: CDPSession, mode: CaptureMode): FrameCapturer {
  let drawn = false;
  // The image a BeginFrame without damage repeats.
  let last: FrameResult & { kind: "image" } = { kind: "image", data: Buffer.alloc(0) };
  const image = (base64: string): FrameResult => {
    drawn = true;
    last = { kind: "image", data: Buffer.from(base64, "base64") };
    return last;
  };
  const takeFrame =
    mode === "beginframe"
      ? async (settings: FrameImageSettings): Promise<FrameResult> => {
          const screenshot = screenshotOf(settings);
          // A frame without damage comes without a screenshot: it repeats the last frame drawn. A
          // page's first frames may have none yet, so those are asked for again.
          for (let attempt = 0; attempt < FIRST_FRAME_ATTEMPTS; attempt++) {
            const { screenshotData } = await cdp.send("HeadlessExperimental.beginFrame", { screenshot });
            if (screenshotData) return image(screenshotData);
            if (drawn) return REPEAT;
          }
          throw new Error("the browser produced no frame for a BeginFrame request");
        }
      : async (settings: FrameImageSettings): Promise<FrameResult> =>
          image((await cdp.send("Page.captureScreenshot", { ...screenshotOf(settings), captureBeyondViewport: false })).data);
  return {
    take: takeFrame,
    async takeImage(settings) {
      const frame = await takeFrame(settings);
      return frame.kind === "image" ? frame : last;
    },
    get drawn() {
      return drawn;
    },
    restart() {
      drawn = false;
    },
  };
}
