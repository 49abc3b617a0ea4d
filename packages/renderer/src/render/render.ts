import { rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { frameCount, resolveWorkerCount, TRANSPARENT_FORMATS } from "@compose/core";
import type { CompositionPage } from "../browser/composition-page.js";
import { sequenceFrameName } from "../encode/encoder-args.js";
import type { FrameSink } from "../encode/frame-sink.js";
import { OutputAssembly } from "../encode/output-assembly.js";
import { audioFileName, shiftClips } from "../media/audio-mix.js";
import { checkOutput } from "../output/check-output.js";
import { outputSize } from "../output/output-size.js";
import { ownedTempDir, RENDER_TEMP } from "../output/owned-temp.js";
import { stageDirectory, stageFile, stageStill } from "../output/staged-output.js";
import { frameTime, splitFrames, type FrameRange } from "../plan/frame-ranges.js";
import { chooseDynamicRange } from "./dynamic-range.js";
import { warnOnFlatFrames } from "./flat-frames.js";
import { warnOnStillness } from "./stillness.js";
import { chooseHardwareEncoder } from "./hardware-choice.js";
import { gainEnvelopes, mixAudio, type AudioMix } from "./mix-audio.js";
import { ProgressMeter } from "./progress-meter.js";
import { replayFrames } from "./replay-frames.js";
import type { FrameStats, RenderFinishedEvent } from "./render-events.js";
import { RenderError, throwIfAborted } from "./render-error.js";
import { openSession, withRenderContext, type RenderContext, type RenderHooks, type SessionRequest } from "./composition-session.js";

export interface RenderRequest extends SessionRequest {
  /** The output file, or directory for png-sequence. */
  output: string;
  /**
   * Render only these composition frames (end exclusive), e.g. a short slice to measure speed.
   * An end past the composition is cut to it; a start past it is an error.
   */
  frames?: { start: number; end: number };
  /** Write the first frame of `frames` as one PNG file at `output` (format png-sequence, no audio). */
  still?: boolean;
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
function sliceFrames(compositionFrames: number, fps: number, requested: RenderRequest["frames"]): FrameRange {
  if (!requested) return { start: 0, end: compositionFrames };
  if (requested.start >= compositionFrames) {
    const last = compositionFrames - 1;
    throw new RenderError(
      "invalid-frames",
      `frame ${requested.start} is past the composition's last frame, ${last} (${frameTime(last, fps).toFixed(3)} s at ${fps} fps)`,
    );
  }
  const start = Math.max(0, Math.floor(requested.start));
  const end = Math.max(start + 1, Math.min(compositionFrames, Math.floor(requested.end)));
  return { start, end };
}

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
  sink: FrameSink,
  meter: ProgressMeter,
  signal: AbortSignal | undefined,
): Promise<void> {
  const start = firstFrame + range.start;
  let played = start === 0 || page.needsHistory;
  if (start > 0 && page.needsHistory) await replayFrames(page, 0, start, fps, signal);
  let previous: Buffer | undefined;
  for (let frame = start; frame < firstFrame + range.end; frame++) {
    throwIfAborted(signal);
    let image = await page.frameAt(frameTime(frame, fps));
    if (!played && page.needsHistory) {
      played = true;
      await page.reload();
      await replayFrames(page, 0, frame, fps, signal);
      image = await page.frameAt(frameTime(frame, fps));
    }
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
  const still = request.still === true && options.format === "png-sequence";
  await checkOutput(request.output, options.format, still);
  const { composition, pages, mode, media, info } = await openSession(request, workers, context);
  const workDir = await ownedTempDir(tmpdir(), RENDER_TEMP);
  context.cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  // A still is one PNG: it keeps what alpha the page leaves, and nobody asked it to be transparent.
  if (!still && TRANSPARENT_FORMATS.includes(options.format) && info.paintedBackgrounds.length > 0) {
    emit({
      type: "warning",
      code: "opaque-background",
      message: `${options.format} keeps transparency, but ${info.paintedBackgrounds.join(", ")} set${info.paintedBackgrounds.length === 1 ? "s" : ""} a background, so the output will not be transparent`,
    });
  }
  const hdr = chooseDynamicRange(options, media.hdr, emit);
  const hardware = await chooseHardwareEncoder(options, hdr, emit);
  const slice = sliceFrames(frameCount(info.duration, options.fps), options.fps, request.frames);
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
    durationSource: info.durationSource,
    totalFrames,
    workers: ranges.length,
    captureMode: mode,
  });

  const staged = still
    ? await stageStill(request.output, sequenceFrameName(0))
    : options.format === "png-sequence"
      ? await stageDirectory(request.output)
      : await stageFile(request.output);
  let committed = false;
  context.cleanups.push(async () => {
    if (!committed) await staged.discard();
  });

  const audio = request.audio === false || still ? [] : shiftClips(media.audio, slice.start / options.fps);
  const audioFile = audio.length > 0
    ? join(options.format === "png-sequence" ? staged.path : workDir, audioFileName(options.format))
    : undefined;
  const mix: AudioMix = { clips: audio, format: options.format, fps: options.fps, firstFrame: slice.start, frames: totalFrames, output: audioFile ?? "", workDir };
  // The mix needs no frames, so it runs while the browsers capture; a volume that scripts change
  // over time is known only once every frame was seeked, and then the mix is made again.
  const mixing = audioFile ? mixAudio(mix, undefined, signal) : Promise.resolve();
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
  warnOnStillness(pages.map((page) => page.stats), info, emit);
  await mixing;
  if (audioFile) {
    const envelopes = await gainEnvelopes(pages, mix);
    if (envelopes) await mixAudio(mix, envelopes, signal);
  }
  if (assembly.hasSteps) {
    meter.assembling();
    await assembly.assemble(signal);
  }
  throwIfAborted(signal);
  await staged.commit();
  committed = true;
  // A slice (a chunk of a distributed render) may well be one colour where the whole is not.
  if (!request.frames) await warnOnFlatFrames(request.output, options.format, info, emit, signal);

  return {
    type: "finished",
    output: request.output,
    format: options.format,
    durationSeconds: seconds,
    width: composition.width,
    height: composition.height,
    frames: totalFrames,
    sizeBytes: await outputSize(request.output),
    captureMs: meter.captureMs(),
    elapsedMs: Date.now() - startedAt,
    stats: sumFrameStats(pages.map((page) => page.stats)),
    history: pages.some((page) => page.needsHistory) ? "replay" : "skip",
  };
}

/** Where the time of several pages' frames went, together (the workers of a render, the chunks of a distributed one). */
export function sumFrameStats(stats: readonly FrameStats[]): FrameStats {
  return stats.reduce<FrameStats>(
    (sum, each) => ({
      frames: sum.frames + each.frames,
      reused: sum.reused + each.reused,
      seekMs: sum.seekMs + each.seekMs,
      captureMs: sum.captureMs + each.captureMs,
      replayedFrames: sum.replayedFrames + each.replayedFrames,
      replayMs: sum.replayMs + each.replayMs,
    }),
    { frames: 0, reused: 0, seekMs: 0, captureMs: 0, replayedFrames: 0, replayMs: 0 },
  );
}
