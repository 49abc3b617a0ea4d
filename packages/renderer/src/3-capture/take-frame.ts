import type { CompositionPage } from "../page/composition-page.js";
import { REPEAT, type FrameResult } from "../common/frame-result.js";
import type { FrameSettings } from "../2-plan/render-plan.js";
import type { RowFrames } from "./shared-frames.js";

/**
 * Seeks the page to `t` seconds and takes that frame: a repeat when it is known to equal the
 * previous one (the page said the seek changed nothing, with `reuseFrames`, or the compositor
 * drew no damage). Every repeat counts in the page's `stats.reused`. In a batch, `shared` is the
 * row's view of the frames earlier rows captured, and `frame` the frame's number there.
 */
export async function takeFrame(page: CompositionPage, t: number, settings: FrameSettings, shared?: { row: RowFrames; frame: number }): Promise<FrameResult> {
  const seekStarted = performance.now();
  const changed = await page.seek(t);
  page.checkAssets();
  const captureStarted = performance.now();
  page.stats.frames++;
  page.stats.seekMs += captureStarted - seekStarted;
  const capture = () => (shared ? shared.row.take(page, shared.frame, settings) : page.capture(settings));
  const frame = settings.reuseFrames && !changed && page.drawn ? REPEAT : await capture();
  page.stats.captureMs += performance.now() - captureStarted;
  if (frame.kind === "repeat") page.stats.reused++;
  return frame;
}
