import { rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { frameCount, type RenderOptions } from "@compose/core";
import { BrowserPool } from "../browser/browser-pool.js";
import type { CaptureMode } from "../capture/frame-capturer.js";
import { loadComposition } from "../composition/load-composition.js";
import { frameImageFormat } from "../encode/encoder-args.js";
import { runFfmpeg } from "../encode/ffmpeg-process.js";
import { mixArgs } from "../media/audio-mix.js";
import { cacheRoot } from "../media/media-cache.js";
import { prepareMedia } from "../media/prepare-media.js";
import { serveProject } from "../serve/project-server.js";
import { openPages } from "./open-pages.js";
import { preflight } from "./preflight.js";
import { explainFailure, type RenderHooks } from "./render.js";
import { RenderError, throwIfAborted } from "./render-error.js";

export interface CompositionAudioRequest {
  /** The composition's HTML file. */
  composition: string;
  /** The options of the render this audio belongs to (format and fps matter). */
  options: RenderOptions;
  /**
   * Where the mixed audio goes, in the codec the format carries (audioFileName(format) names it:
   * AAC for mp4, mov and png-sequence, Opus for webm). Nothing is written when nothing is audible.
   */
  output: string;
  captureMode?: CaptureMode;
  readyTimeoutMs?: number;
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
export async function mixCompositionAudio(request: CompositionAudioRequest, hooks: RenderHooks = {}): Promise<CompositionAudio> {
  const emit = hooks.onEvent ?? (() => undefined);
  const { signal } = hooks;
  const pool = new BrowserPool();
  const cleanups: Array<() => Promise<void> | void> = [];
  const onAbort = () => pool.killAll();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const { options } = request;
    throwIfAborted(signal);
    const composition = await loadComposition(request.composition);
    preflight(composition, options, emit);
    const projectRoot = dirname(composition.file);
    const server = await serveProject(projectRoot, join(cacheRoot(), "frames"));
    cleanups.push(() => server.close());

    const { pages } = await openPages(request, composition, 1, pool, server.baseUrl, emit);
    const media = await prepareMedia(pages, {
      projectRoot,
      baseUrl: server.baseUrl,
      fps: options.fps,
      image: frameImageFormat(options.format),
      signal,
    });
    const { duration } = pages[0]!.info;
    if (duration === undefined) {
      throw new RenderError(
        "invalid-composition",
        `${composition.id} has no known duration: set data-duration on the composition element or on its clips`,
      );
    }
    // Capture covers whole frames, and the mix is exactly as long as they are.
    const totalFrames = frameCount(duration, options.fps);
    const seconds = totalFrames / options.fps;
    let audioFile: string | undefined;
    if (media.audio.length > 0) {
      // Beside the destination and renamed on success, so a reader never sees half a file; the
      // extension stays last, since ffmpeg picks the container from it.
      const partial = join(dirname(request.output), `.partial-${basename(request.output)}`);
      cleanups.push(() => rm(partial, { force: true }));
      await runFfmpeg(mixArgs(media.audio, seconds, options.format, partial), signal);
      throwIfAborted(signal);
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
  } catch (error) {
    const failure = explainFailure(error, pool, signal);
    emit({ type: "failed", code: failure.code, message: failure.message });
    throw failure;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await pool.closeAll();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
