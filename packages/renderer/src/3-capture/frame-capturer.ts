import type { CDPSession } from "puppeteer-core";
import type { CaptureMode } from "../page/composition-page.js";
import { REPEAT, type FrameResult } from "../common/frame-result.js";
import type { FrameImageSettings } from "../2-plan/render-plan.js";

/** Takes the page's current frame; `restart` forgets what was drawn before (a reloaded page). */
export interface FrameCapturer {
  take(): Promise<FrameResult>;
  /** Whether an image was taken since the start, so that a repeat has something to repeat. */
  readonly drawn: boolean;
  restart(): void;
}

/** How many BeginFrames a new page may take to draw its first frame. */
const FIRST_FRAME_ATTEMPTS = 5;

export function createFrameCapturer(cdp: CDPSession, mode: CaptureMode, settings: FrameImageSettings): FrameCapturer {
  const screenshot = settings.image === "jpeg"
    ? { format: "jpeg" as const, quality: settings.jpegQuality, optimizeForSpeed: true }
    : { format: "png" as const, optimizeForSpeed: true };
  let drawn = false;
  const image = (base64: string): FrameResult => {
    drawn = true;
    return { kind: "image", data: Buffer.from(base64, "base64") };
  };
  const takeFrame = mode === "beginframe"
    ? async (): Promise<FrameResult> => {
        // A frame without damage comes without a screenshot: it repeats the last frame drawn. A
        // page's first frames may have none yet, so those are asked for again.
        for (let attempt = 0; attempt < FIRST_FRAME_ATTEMPTS; attempt++) {
          const { screenshotData } = await cdp.send("HeadlessExperimental.beginFrame", { screenshot });
          if (screenshotData) return image(screenshotData);
          if (drawn) return REPEAT;
        }
        throw new Error("the browser produced no frame for a BeginFrame request");
      }
    : async (): Promise<FrameResult> => image((await cdp.send("Page.captureScreenshot", { ...screenshot, captureBeyondViewport: false })).data);
  return {
    take: takeFrame,
    get drawn() {
      return drawn;
    },
    restart() {
      drawn = false;
    },
  };
}
