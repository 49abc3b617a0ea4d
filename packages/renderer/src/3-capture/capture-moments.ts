import type { CompositionPage } from "../page/composition-page.js";
import { frameTime } from "../common/frame-ranges.js";
import { throwIfAborted } from "../common/render-error.js";
import type { FrameSettings } from "../2-plan/render-plan.js";
import { replayFrames } from "./replay-frames.js";
import { takeFrame } from "./take-frame.js";

/**
 * Takes composition frames `frames` (ascending, distinct) on one page, each the image a render
 * takes of it: the page played from 0 through that frame (one history). A page whose state builds
 * up over time plays the frames between two moments without capturing them; one that looked
 * timeless and turns out not to be, once seeked past a gap, is loaded again and replayed.
 */
export async function captureMoments(
  page: CompositionPage,
  frames: readonly number[],
  fps: number,
  settings: FrameSettings,
  signal: AbortSignal | undefined,
): Promise<Buffer[]> {
  const images: Buffer[] = [];
  let last: Buffer | undefined;
  // The frame the page has played up to, when every seek so far followed its history.
  let next = 0;
  let inOrder = true;
  for (const frame of frames) {
    throwIfAborted(signal);
    if (inOrder && page.needsHistory) await replayFrames(page, next, frame, fps, signal);
    else if (frame !== next) inOrder = false;
    let result = await takeFrame(page, frameTime(frame, fps), settings);
    if (!inOrder && page.needsHistory) {
      await page.reload();
      await replayFrames(page, 0, frame, fps, signal);
      inOrder = true;
      result = await takeFrame(page, frameTime(frame, fps), settings);
    }
    next = frame + 1;
    // A repeat is the image of the moment before: the seek changed nothing that draws.
    if (result.kind === "image") last = result.data;
    if (!last) throw new Error("the first frame of a snapshot cannot repeat a previous one");
    images.push(last);
  }
  return images;
}
