import { rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { frameCount, resolveWorkerCount, TRANSPARENT_FORMATS } from "@compose/core";
import type { CompositionPage, FrameStats } from "../browser/composition-page.js";
import { runFfmpeg } from "../encode/ffmpeg-process.js";
import type { FrameSink } from "../encode/frame-sink.js";
import { OutputAssembly } from "../encode/output-assembly.js";
import { audioFileName, mixArgs, shiftClips } from "../media/audio-mix.js";
import { checkOutput } from "../output/check-output.js";
import { outputSize } from "../output/output-size.js";
import { ownedTempDir, RENDER_TEMP } from "../output/owned-temp.js";
import { stageDirectory, stageFile } from "../output/staged-output.js";
import { frameTime, splitFrames, type FrameRange } from "../plan/frame-ranges.js";
import { chooseDynamicRange } from "./dynamic-range.js";
import { chooseHardwareEncoder } from "./hardware-choice.js";
import { ProgressMeter } from "./progress-meter.js";
import type { RenderFinishedEvent } from "./render-events.js";
import { throwIfAborted } from "./render-error.js";
import { openSession, withRenderContext, type RenderContext, type RenderHooks, type SessionRequest } from "./composition-session.js";

export interface RenderRequest extends SessionRequest {
  /** The output file, or directory for png-sequence. */
  output: string;
  /** Render only these composition frames (end exclusive), e.g. a short slice to measure speed. */
  frames?: { start: number; end: number };
  /**
   * Mix the composition's audio into the output (default true). false renders the video alone: a
   * chunk of a distributed render, whose audio mixCompositionAudio() mixes once for the whole.
   */
  audio?: boolean;
}

export type { RenderHooks };

/** Renders a composition to a file: the one entry point of the CLI and the producer server. */
export function render(request: RenderRequest, hooks: RenderHooks = {}): Promise<RenderFinishedEvent> {
  return withRenderContext(hooks, async (context) => {
    const finished = await runRender(request, context);
    context.emit(finished);
    return finished;
  });
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
  let previous: Buffer | undefined;
  for (let frame = range.start; frame < range.end; frame++) {
    throwIfAborted(signal);
    const image = await page.frameAt(frameTime(firstFrame + frame, fps));
    // A page hands back the previous frame's very buffer when nothing in it changed.
    if (image === previous) sink.repeat();
    else await sink.write(image);
    previous = image;
    meter.frameDone();
  }
  await sink.finish();
}

async function runRender(request: RenderRequest, context: RenderContext): Promise<RenderFinishedEvent> {
  const startedAt = Date.now();
  const { options } = request;
  const { emit, signal } = context;
  const workers = resolveWorkerCount(options.workers, availableParallelism());
  await checkOutput(request.output, options.format);
  const { composition, pages, mode, media, info } = await openSession(request, workers, context);
  const workDir = await ownedTempDir(tmpdir(), RENDER_TEMP);
  context.cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  if (TRANSPARENT_FORMATS.includes(options.format) && info.paintedBackgrounds.length > 0) {
    emit({
      type: "warning",
      code: "opaque-background",
      message: `${options.format} keeps transparency, but ${info.paintedBackgrounds.join(", ")} set${info.paintedBackgrounds.length === 1 ? "s" : ""} a background, so the output will not be transparent`,
    });
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
  context.cleanups.push(async () => {
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
    settings: {
      format: options.format,
      fps: options.fps,
      width: composition.width,
      height: composition.height,
      quality: options.quality,
      crf: options.crf,
      videoBitrate: options.videoBitrate,
      hdr,
      hardware,
    },
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
    sizeBytes: await outputSize(request.output, options.format),
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
