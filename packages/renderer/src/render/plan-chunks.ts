import { mkdir } from "node:fs/promises";
import { gainEnvelopes, mixAudio } from "../5-assemble/mix-audio.js";
import { replayFrames } from "../3-capture/replay-frames.js";
import type { CompositionPage } from "../page/composition-page.js";
import { frameTime } from "../common/frame-ranges.js";
import { throwIfAborted } from "../common/render-error.js";
import { loadComposition, type LoadRequest } from "../1-load/load-composition.js";
import { withRenderContext, type RenderHooks } from "./render-context.js";
import { makePlan, type PlanRequest } from "../2-plan/make-plan.js";
import { rebasePlan } from "../2-plan/rebase-plan.js";
import type { RenderPlan } from "../2-plan/render-plan.js";

/** What planChunks() is asked: the composition, the options, the chunks' size, and where the files go. */
export interface ChunksPlanRequest extends LoadRequest, Pick<PlanRequest, "reuseFrames"> {
  /** Frames per chunk: the plan has one range per chunk. */
  chunkSize: number;
  /** The directory the plan's files are in, which every machine that renders a chunk sees (each at a path of its own). */
  root: string;
  /** Relative to `root`: the work directory (the chunks, the mixed audio) and the output. */
  workDir: string;
  output: string;
}

export interface ChunksPlan {
  /** The whole render's plan, its files named relative to `root` (rebasePlan names them on a machine). */
  plan: RenderPlan;
  /** Frames played (seeked, not captured) to learn the volume envelopes. */
  playedFrames: number;
}

/**
 * Plays the frames the gain log needs: the first and the last when no script moves a gain after
 * the page is ready (the seek to the last frame carries every timer and timeline past on the way,
 * so a write to a volume would be seen), else every frame from a fresh load, as render() plays
 * them. Returns how many frames it played.
 */
async function playForGains(page: CompositionPage, frames: number, fps: number, signal: AbortSignal | undefined): Promise<number> {
  if (!page.needsHistory) {
    const ends = frames > 1 ? [0, frames - 1] : [0];
    for (const frame of ends) await page.replayAt(frameTime(frame, fps));
    if (!page.needsHistory && !(await page.volumesMayChange())) return ends.length;
    await page.reload();
    throwIfAborted(signal);
    await replayFrames(page, 0, frames, fps, signal);
    return ends.length + frames;
  }
  await replayFrames(page, 0, frames, fps, signal);
  return frames;
}

/**
 * The plan of a render split across machines, made once: the composition loaded and planned as
 * render() plans it, with one range per chunk (each encoded into a part in the work directory by
 * renderRange()), and the plan's audio mixed there for the whole, without capturing a frame, for
 * assembleChunks() to mux in. Warnings go to onEvent; a failure is a RenderError, as with render().
 */
export function planChunks(request: ChunksPlanRequest, hooks: RenderHooks = {}): Promise<ChunksPlan> {
  return withRenderContext(hooks, async (context) => {
    const loaded = await loadComposition(request, context);
    // The staged output is the assembling machine's own (assembleChunks), so the plan names the output there.
    const plan = await makePlan(request, loaded, { output: request.output, stagedPath: request.output, workDir: request.workDir }, context.emit);
    const { audio } = rebasePlan(plan, request.root);
    let playedFrames = 0;
    if (audio) {
      await mkdir(audio.workDir, { recursive: true });
      playedFrames = await playForGains(loaded.firstPage, plan.totalFrames, plan.fps, context.signal);
      await mixAudio(audio, await gainEnvelopes([loaded.firstPage], audio), context.signal);
    }
    return { plan, playedFrames };
  });
}
