import type { CompositionPage } from "../page/composition-page.js";
import { REPEAT, type FrameResult } from "../common/frame-result.js";
import type { FrameSettings } from "../2-plan/render-plan.js";
import { createFrameCapturer, type FrameCapturer } from "./frame-capturer.js";

/** Each page's capturer, with the load it has drawn in: a reloaded page has drawn nothing yet. */
const capturers = new WeakMap<CompositionPage, { capturer: FrameCapturer; loads: number }>();

function capturerOf(page: CompositionPage, settings: FrameSettings): FrameCapturer {
  // The settings are the render's, the same for every frame of the page.
  const held = capturers.get(page) ?? { capturer: createFrameCapturer(page.cdp, page.captureMode, settings), loads: page.loads };
  capturers.set(page, held);
  if (held.loads !== page.loads) {
    held.capturer.restart();
    held.loads = page.loads;
  }
  return held.capturer;
}

/**
 * Seeks the page to `t` seconds and takes that frame: a repeat when it is known to equal the
 * previous one (the page said the seek changed nothing, with `reuseFrames`, or the compositor
 * drew no damage). Every repeat counts in the page's `stats.reused`.
 */
export async function takeFrame(page: CompositionPage, t: number, settings: FrameSettings): Promise<FrameResult> {
  const seekStarted = performance.now();
  const changed = await page.seek(t);
  page.checkAssets();
  const captureStarted = performance.now();
  page.stats.frames++;
  page.stats.seekMs += captureStarted - seekStarted;
  const capturer = capturerOf(page, settings);
  const frame = settings.reuseFrames && !changed && capturer.drawn ? REPEAT : await page.drawing(capturer.take());
  page.stats.captureMs += performance.now() - captureStarted;
  if (frame.kind === "repeat") page.stats.reused++;
  return frame;
}
