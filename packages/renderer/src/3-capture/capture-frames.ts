import type { CompositionPage } from "../page/composition-page.js";
import { frameTime, type FrameRange } from "../common/frame-ranges.js";
import { throwIfAborted } from "../common/render-error.js";
import type { CapturePlan, RenderPlan } from "../2-plan/render-plan.js";
import type { FrameSink } from "./frame-sink.js";
import type { ProgressMeter } from "./progress-meter.js";
import { replayFrames } from "./replay-frames.js";
import { takeFrame } from "./take-frame.js";
import type { RowFrames } from "./shared-frames.js";

/**
 * Captures composition frames `firstFrame + range` into the sink. Frame n must be the page
 * played from 0 through n (one history): a page whose state builds up over time and starts
 * after frame 0 first replays the frames before its range. A page that looked timeless but
 * turns out not to be, once seeked, is loaded again and replayed up to where it stands.
 */
async function captureRange(
  page: CompositionPage,
  range: FrameRange,
  firstFrame: number,
  fps: number,
  capture: CapturePlan,
  sink: FrameSink,
  meter: ProgressMeter,
  signal: AbortSignal | undefined,
  shared: RowFrames | undefined,
): Promise<void> {
  const take = (frame: number) => takeFrame(page, frameTime(frame, fps), capture, shared && { row: shared, frame });
  const start = firstFrame + range.start;
  let played = start === 0 || page.needsHistory;
  if (start > 0 && page.needsHistory) await replayFrames(page, 0, start, fps, signal);
  for (let frame = start; frame < firstFrame + range.end; frame++) {
    throwIfAborted(signal);
    let result = await take(frame);
    if (!played && page.needsHistory) {
      played = true;
      await page.reload();
      await replayFrames(page, 0, frame, fps, signal);
      result = await take(frame);
    }
    shared?.pass(frame);
    await sink.take(result);
    meter.frameDone();
  }
  await sink.finish();
}

/**
 * The capture stage: every worker's page takes its range of the plan's frames into its sink, all
 * at once. A failure anywhere stops every encoder, so no ffmpeg outlives the render. A batch's
 * row passes its view of the frames earlier rows captured (SharedFrames).
 */
export async function captureFrames(
  plan: Pick<RenderPlan, "ranges" | "frames" | "fps" | "capture">,
  pages: readonly CompositionPage[],
  sinks: readonly FrameSink[],
  meter: ProgressMeter,
  signal: AbortSignal | undefined,
  shared?: RowFrames,
): Promise<void> {
  const kill = () => sinks.forEach((sink) => sink.kill());
  signal?.addEventListener("abort", kill, { once: true });
  try {
    await Promise.all(
      plan.ranges.map((range, i) => captureRange(pages[i]!, range, plan.frames.start, plan.fps, plan.capture, sinks[i]!, meter, signal, shared)),
    );
  } catch (error) {
    kill();
    throw error;
  } finally {
    signal?.removeEventListener("abort", kill);
  }
  meter.finish();
}
