import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { frameCount, resolveWorkerCount, TRANSPARENT_FORMATS, type RenderOptions } from "@compose/core";
import { BrowserPool } from "../browser/browser-pool.js";
import type { CompositionPage, FrameStats } from "../browser/composition-page.js";
import type { CaptureMode } from "../capture/frame-capturer.js";
import { loadComposition } from "../composition/load-composition.js";
import { frameImageFormat } from "../encode/encoder-args.js";
import { runFfmpeg } from "../encode/ffmpeg-process.js";
import type { FrameSink } from "../encode/frame-sink.js";
import { OutputAssembly } from "../encode/output-assembly.js";
import { audioFileName, mixArgs, shiftClips } from "../media/audio-mix.js";
import { cacheRoot } from "../media/media-cache.js";
import { prepareMedia } from "../media/prepare-media.js";
import { stageDirectory, stageFile } from "../output/staged-output.js";
import { frameTime, splitFrames, type FrameRange } from "../plan/frame-ranges.js";
import { serveProject } from "../serve/project-server.js";
import { chooseDynamicRange } from "./dynamic-range.js";
import { chooseHardwareEncoder } from "./hardware-choice.js";
import { openPages } from "./open-pages.js";
import { preflight } from "./preflight.js";
import { ProgressMeter } from "./progress-meter.js";
import type { RenderEvent, RenderFinishedEvent } from "./render-events.js";
import { cancelledError, RenderError, throwIfAborted } from "./render-error.js";

export interface RenderRequest {
  /** The composition's HTML file. */
  composition: string;
  /** The output file, or directory for png-sequence. */
  output: string;
  /** Validated options (validateRenderOptions in @compose/core). */
  options: RenderOptions;
  /** How frames are taken from the browser; BeginFrame unless the browser cannot do it. */
  captureMode?: CaptureMode;
  /** How long a page may take to load and become ready, and each frame to settle. */
  readyTimeoutMs?: number;
  /** Render only these composition frames (end exclusive), e.g. a short slice to measure speed. */
  frames?: { start: number; end: number };
  /** Reuse a frame's image when the page reports that nothing changed since the previous one (default true). */
  reuseFrames?: boolean;
  /**
   * Mix the composition's audio into the output (default true). false renders the video alone: a
   * chunk of a distributed render, whose audio mixCompositionAudio() mixes once for the whole.
   */
  audio?: boolean;
}

export interface RenderHooks {
  onEvent?: (event: RenderEvent) => void;
  signal?: AbortSignal;
}

type Cleanup = () => Promise<void> | void;

/** Renders a composition to a file: the one entry point of the CLI and the producer server. */
export async function render(request: RenderRequest, hooks: RenderHooks = {}): Promise<RenderFinishedEvent> {
  const emit = hooks.onEvent ?? (() => undefined);
  const pool = new BrowserPool();
  const cleanups: Cleanup[] = [];
  const onAbort = () => pool.killAll();
  hooks.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const finished = await runRender(request, emit, pool, cleanups, hooks.signal);
    emit(finished);
    return finished;
  } catch (error) {
    const failure = explainFailure(error, pool, hooks.signal);
    emit({ type: "failed", code: failure.code, message: failure.message });
    throw failure;
  } finally {
    hooks.signal?.removeEventListener("abort", onAbort);
    await pool.closeAll();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** The one RenderError a failure is reported as; mixCompositionAudio() reports its failures the same way. */
export function explainFailure(error: unknown, pool: BrowserPool, signal: AbortSignal | undefined): RenderError {
  if (signal?.aborted) return cancelledError();
  if (error instanceof RenderError) return error;
  if (pool.crashed) return new RenderError("browser-crashed", "the browser exited unexpectedly during the render");
  const message = error instanceof Error ? error.message : String(error);
  return new RenderError("encode-failed", message.split("\n")[0] ?? message);
}

/** The requested frames within the composition's, never empty. */
function sliceFrames(compositionFrames: number, requested: RenderRequest["frames"]): FrameRange {
  if (!requested) return { start: 0, end: compositionFrames };
  const start = Math.min(Math.max(0, Math.floor(requested.start)), compositionFrames - 1);
  const end = Math.max(start + 1, Math.min(compositionFrames, Math.floor(requested.end)));
  return { start, end };
}

async function captureRange(
  page: CompositionPage,
  range: FrameRange,
  firstFrame: number,
  fps: number,
  sink: FrameSink,
  meter: ProgressMeter,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (let frame = range.start; frame < range.end; frame++) {
    throwIfAborted(signal);
    await sink.write(await page.frameAt(frameTime(firstFrame + frame, fps)));
    meter.frameDone();
  }
  await sink.finish();
}

async function runRender(
  request: RenderRequest,
  emit: (event: RenderEvent) => void,
  pool: BrowserPool,
  cleanups: Cleanup[],
  signal: AbortSignal | undefined,
): Promise<RenderFinishedEvent> {
  const startedAt = Date.now();
  const { options } = request;
  throwIfAborted(signal);
  const composition = await loadComposition(request.composition);
  preflight(composition, options, emit);

  const projectRoot = dirname(composition.file);
  const server = await serveProject(projectRoot, join(cacheRoot(), "frames"));
  cleanups.push(() => server.close());
  const workDir = await mkdtemp(join(tmpdir(), "compose-render-"));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));

  const workers = resolveWorkerCount(options.workers, availableParallelism());
  const { pages, mode } = await openPages(request, composition, workers, pool, server.baseUrl, emit);
  const media = await prepareMedia(pages, {
    projectRoot,
    baseUrl: server.baseUrl,
    fps: options.fps,
    image: frameImageFormat(options.format),
    signal,
  });
  const { info } = pages[0]!;
  if (info.duration === undefined) {
    throw new RenderError(
      "invalid-composition",
      `${composition.id} has no known duration: set data-duration on the composition element or on its clips`,
    );
  }
  if (TRANSPARENT_FORMATS.includes(options.format) && info.paintedBackgrounds.length > 0) {
    emit({
      type: "warning",
      code: "opaque-background",
      message: `${options.format} keeps transparency, but ${info.paintedBackgrounds.join(", ")} set${info.paintedBackgrounds.length === 1 ? "s" : ""} a background, so the output will not be transparent`,
    });
  }
  for (const timingError of info.timingErrors) {
    emit({ type: "warning", code: timingError.code, message: timingError.message });
  }
  const hdr = chooseDynamicRange(options, media.hdr, emit);
  const hardware = await chooseHardwareEncoder(options, hdr, emit);
  const slice = sliceFrames(frameCount(info.duration, options.fps), request.frames);
  const totalFrames = slice.end - slice.start;
  const seconds = totalFrames / options.fps;
  // Ranges count output frames from 0; output frame n is composition frame slice.start + n.
  const ranges = splitFrames(totalFrames, pages.length);

  emit({
    type: "started",
    composition: composition.id,
    output: request.output,
    format: options.format,
    fps: options.fps,
    quality: options.quality,
    width: composition.width,
    height: composition.height,
    durationSeconds: seconds,
    totalFrames,
    workers: ranges.length,
    captureMode: mode,
  });

  const staged = options.format === "png-sequence" ? await stageDirectory(request.output) : await stageFile(request.output);
  let committed = false;
  cleanups.push(async () => {
    if (!committed) await staged.discard();
  });

  const audio = request.audio === false ? [] : shiftClips(media.audio, slice.start / options.fps);
  const audioFile = audio.length > 0
    ? join(options.format === "png-sequence" ? staged.path : workDir, audioFileName(options.format))
    : undefined;
  // The mix needs no frames, so it runs while the browsers capture.
  const mixing = audioFile ? runFfmpeg(mixArgs(audio, seconds, options.format, audioFile), signal) : Promise.resolve();
  mixing.catch(() => undefined);

  const assembly = new OutputAssembly({
    settings: { format: options.format, fps: options.fps, quality: options.quality, crf: options.crf, videoBitrate: options.videoBitrate, hdr, hardware },
    ranges,
    stagedPath: staged.path,
    workDir,
    audioFile,
  });
  const meter = new ProgressMeter(totalFrames, emit);
  const kill = () => assembly.kill();
  signal?.addEventListener("abort", kill, { once: true });
  try {
    await Promise.all(ranges.map((range, i) => captureRange(pages[i]!, range, slice.start, options.fps, assembly.sinks[i]!, meter, signal)));
  } catch (error) {
    kill();
    throw error;
  } finally {
    signal?.removeEventListener("abort", kill);
  }
  meter.finish();
  await mixing;
  if (assembly.hasSteps) {
    meter.assembling();
    await assembly.assemble(signal);
  }
  throwIfAborted(signal);
  await staged.commit();
  committed = true;

  return {
    type: "finished",
    output: request.output,
    format: options.format,
    durationSeconds: seconds,
    width: composition.width,
    height: composition.height,
    frames: totalFrames,
    sizeBytes: await outputSize(request.output, options),
    captureMs: meter.captureMs(),
    elapsedMs: Date.now() - startedAt,
    stats: totalStats(pages),
  };
}

function totalStats(pages: readonly CompositionPage[]): FrameStats {
  return pages.reduce<FrameStats>(
    (sum, { stats }) => ({
      frames: sum.frames + stats.frames,
      reused: sum.reused + stats.reused,
      seekMs: sum.seekMs + stats.seekMs,
      captureMs: sum.captureMs + stats.captureMs,
    }),
    { frames: 0, reused: 0, seekMs: 0, captureMs: 0 },
  );
}

async function outputSize(output: string, options: RenderOptions): Promise<number> {
  if (options.format !== "png-sequence") return (await stat(output)).size;
  const names = await readdir(output);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(output, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}
