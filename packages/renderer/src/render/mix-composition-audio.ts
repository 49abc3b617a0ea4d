import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { frameCount } from "@compose/core";
import { openSession, withRenderContext, type RenderHooks, type SessionRequest } from "../load/open-composition.js";
import { gainEnvelopes, mixAudio } from "../assemble/mix-audio.js";
import { throwIfAborted } from "../common/render-error.js";
import { replayFrames } from "../capture/replay-frames.js";

export interface CompositionAudioRequest extends SessionRequest {
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
}

/**
 * Mixes a composition's audio for the whole of it without capturing a frame: one page is opened
 * so the live DOM's media can be probed (the same prepareMedia() and mixArgs() as render()), and
 * the composition's length and frame count are reported, so a render split into frame-range
 * chunks (each rendered with `audio: false`) gets exactly the sound a single render would carry.
 * Warnings go to onEvent; a failure is a RenderError, as with render().
 */
export function mixCompositionAudio(request: CompositionAudioRequest, hooks: RenderHooks = {}): Promise<CompositionAudio> {
  return withRenderContext(hooks, async (context) => {
    const { options } = request;
    const { composition, media, info, pages } = await openSession(request, 1, context);
    // Capture covers whole frames, and the mix is exactly as long as they are.
    const totalFrames = frameCount(info.duration, options.fps);
    const seconds = totalFrames / options.fps;
    let audioFile: string | undefined;
    if (media.audio.length > 0) {
      // Beside the destination and renamed on success, so a reader never sees half a file; the
      // extension stays last, since ffmpeg picks the container from it.
      const partial = join(dirname(request.output), `.partial-${basename(request.output)}`);
      context.cleanups.push(() => rm(partial, { force: true }));
      const workDir = await mkdtemp(join(tmpdir(), "compose-mix-"));
      context.cleanups.push(() => rm(workDir, { recursive: true, force: true }));
      const mix = { clips: media.audio, format: options.format, fps: options.fps, firstFrame: 0, frames: totalFrames, output: partial, workDir };
      // A volume that scripts change over time is known only by playing every frame, as render() does.
      await replayFrames(pages[0]!, 0, totalFrames, options.fps, context.signal);
      await mixAudio(mix, await gainEnvelopes(pages, mix), context.signal);
      throwIfAborted(context.signal);
      await rename(partial, request.output);
      audioFile = request.output;
    }
    return {
      composition: composition.id,
      width: composition.width,
      height: composition.height,
      fps: options.fps,
      durationSeconds: seconds,
      totalFrames,
      audioFile,
    };
  });
}
