import { tmpdir } from "node:os";
import { rm } from "node:fs/promises";
import { frameCount } from "@compose/core";
import { gainEnvelopes, mixAudio } from "../5-assemble/mix-audio.js";
import { replayFrames } from "../3-capture/replay-frames.js";
import type { CompositionPage } from "../1-load/browser/composition-page.js";
import { frameTime } from "../common/frame-ranges.js";
import { throwIfAborted } from "../common/render-error.js";
import { loadComposition, type LoadRequest } from "../1-load/load-composition.js";
import { withRenderContext, type RenderHooks } from "./render-context.js";
import { ownedTempDir, RENDER_TEMP } from "../output/owned-temp.js";
import { stageFile } from "../output/staged-output.js";

export interface CompositionAudioRequest extends LoadRequest {
  /**
   * Where the mixed audio goes, in the codec the format carries (audioFileName(format) names it:
   * AAC for mp4, mov and png-sequence, Opus for webm). Nothing is written when nothing is audible.
   */
  output: string;
}

/** What a distributed render must know before it plans its chunks. */
export interface CompositionAudio {
  /** The composition's id. */
  composition: string;
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  /** Frames of the whole composition at `fps`: what render() would capture. */
  totalFrames: number;
  /** The mixed audio file (request.output), or undefined when the composition has no audible media. */
  audioFile: string | undefined;
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
 * Mixes a composition's audio for the whole of it without capturing a frame: the composition is
 * loaded as render() loads it (one page, the live DOM's media probed), and the composition's
 * length and frame count are reported, so a render split into frame-range chunks (each rendered
 * with `audio: false`) gets exactly the sound a single render would carry.
 * Warnings go to onEvent; a failure is a RenderError, as with render().
 */
export function mixCompositionAudio(request: CompositionAudioRequest, hooks: RenderHooks = {}): Promise<CompositionAudio> {
  return withRenderContext(hooks, async (context) => {
    const { options } = request;
    const { source, media, info, firstPage } = await loadComposition(request, context);
    // Capture covers whole frames, and the mix is exactly as long as they are.
    const totalFrames = frameCount(info.duration, options.fps);
    let audioFile: string | undefined;
    let playedFrames = 0;
    if (media.audio.length > 0) {
      // Staged beside the destination (its extension last, since ffmpeg picks the container from
      // it) and renamed on success, so a reader never sees half a file.
      const staged = await stageFile(request.output);
      context.cleanups.push(() => staged.discard());
      const workDir = await ownedTempDir(tmpdir(), RENDER_TEMP);
      context.cleanups.push(() => rm(workDir, { recursive: true, force: true }));
      const mix = { clips: media.audio, format: options.format, fps: options.fps, firstFrame: 0, frames: totalFrames, output: staged.path, workDir };
      playedFrames = await playForGains(firstPage, totalFrames, options.fps, context.signal);
      await mixAudio(mix, await gainEnvelopes([firstPage], mix), context.signal);
      throwIfAborted(context.signal);
      await staged.commit();
      audioFile = request.output;
    }
    return {
      composition: source.id,
      width: source.width,
      height: source.height,
      fps: options.fps,
      durationSeconds: totalFrames / options.fps,
      totalFrames,
      audioFile,
      playedFrames,
    };
  });
}
