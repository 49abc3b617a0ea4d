import type { CompositionPage } from "../page/composition-page.js";
import { frameTime } from "../common/frame-ranges.js";
import { throwIfAborted } from "../common/render-error.js";

/**
 * Plays composition frames `from` to `to` (exclusive) without capturing them, so that a page
 * about to show frame `to` has the history a page played from 0 would have.
 */
export async function replayFrames(page: CompositionPage, from: number, to: number, fps: number, signal: AbortSignal | undefined): Promise<void> {
  for (let frame = from; frame < to; frame++) {
    throwIfAborted(signal);
    await page.replayAt(frameTime(frame, fps));
  }
}
