import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  FORMAT_TABLE,
  frameCount,
  isFolderOutput,
  outputExtension,
  paletteEncoding,
  partExtension,
  QUALITY_PRESETS,
  resolveWorkerCount,
  type RenderOptions,
} from "@compose/core";
import { frameImageFormat } from "../common/frame-image.js";
import { scaledSize, type PixelSize } from "../common/scaled-size.js";
import { drawnScale } from "../page/device-scale.js";
import { optionNamer, type OptionNaming } from "../common/option-naming.js";
import { chunkFrames, frameTime, splitFrames, type FrameRange } from "../common/frame-ranges.js";
import type { RenderEvent } from "@compose/core";
import { RenderError } from "../common/render-error.js";
import type { LoadedComposition } from "../1-load/load-composition.js";
import { shiftClips } from "./shift-clips.js";
import { audioFileName, chunkFileName } from "../output/output-names.js";
import { chooseDynamicRange } from "./dynamic-range.js";
import { chooseHardwareEncoder } from "./hardware-choice.js";
import type { AudioClip } from "../media/audio-clip.js";
import type { AssemblePlan, AudioMix, EncodeTarget, PaletteOutput, RenderPlan } from "./render-plan.js";

/** The part of a render request the plan reads beside the options the load stage used. */
export interface PlanRequest extends OptionNaming {
  options: RenderOptions;
  /**
   * Render only these composition frames (end exclusive), e.g. a short slice to measure speed, or
   * a chunk of a distributed render. An end past the composition is cut to it; a start past it is
   * an error.
   */
  frames?: { start: number; end: number } | undefined;
  /** Write the first frame of `frames` as one PNG file at the output (format png-sequence, no audio). */
  still?: boolean | undefined;
  /** Mix the composition's audio into the output (default true); false renders the video alone. */
  audio?: boolean | undefined;
  /**
   * Split the frames into ranges of this many frames, for a render split across machines: each
   * range is encoded into a part of its own in the work directory (chunkFileName), the audio is
   * mixed there, and assembly makes the output of them all.
   */
  chunkSize?: number | undefined;
  /** Take the page's word that a seek changed nothing and repeat the previous image (default true). */
  reuseFrames?: boolean | undefined;
}

/** Where the output is staged, made before the plan so that the plan can name the files in it. */
export interface Staging {
  output: string;
  stagedPath: string;
  workDir: string;
}

/** Whether the request asks for one frame as one PNG image (a still is always png-sequence). */
export function isStill(request: Pick<PlanRequest, "options" | "still">): boolean {
  return request.still === true && isFolderOutput(request.options.format);
}

/** The requested frames within the composition's, never empty. */
export function sliceFrames(compositionFrames: number, fps: number, requested: PlanRequest["frames"]): FrameRange {
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
 * One encoder per range: a png-sequence writes its frames straight into the staged directory; one
 * range writes the staged file, or the silent video when audio is muxed in after; several ranges
 * write chunks, each starting on a keyframe of its own encoder, joined after capture. A paletted
 * format's ranges always write lossless parts, which assembly makes into the output.
 */
function encodeTargets(
  plan: Pick<RenderPlan, "ranges" | "output">,
  audioFile: string | undefined,
  palette: PaletteOutput | undefined,
): { targets: EncodeTarget[]; assemble: AssemblePlan | undefined } {
  const { ranges, output } = plan;
  const { format, stagedPath, workDir } = output;
  if (isFolderOutput(format)) {
    return { targets: ranges.map((range) => ({ kind: "sequence", directory: stagedPath, firstFrame: range.start })), assemble: undefined };
  }
  const assemble = (parts: string[]): AssemblePlan => ({ format, parts, audioFile, palette, into: stagedPath, workDir });
  if (ranges.length === 1 && !palette) {
    if (!audioFile) return { targets: [{ kind: "file", path: stagedPath }], assemble: undefined };
    const video = join(workDir, `video${outputExtension(format)}`);
    return { targets: [{ kind: "chunk", path: video }], assemble: assemble([video]) };
  }
  const chunks = ranges.map((_, i) => join(workDir, `chunk-${i}${partExtension(format)}`));
  return { targets: chunks.map((path) => ({ kind: "chunk", path })), assemble: assemble(chunks) };
}

/** The targets of a render in chunks: every range a part in the work directory, assembled after. */
function chunkTargets(
  plan: Pick<RenderPlan, "ranges" | "output">,
  audioFile: string | undefined,
  palette: PaletteOutput | undefined,
): { targets: EncodeTarget[]; assemble: AssemblePlan } {
  const { format, stagedPath, workDir } = plan.output;
  const parts = plan.ranges.map((_, i) => join(workDir, chunkFileName(i, format)));
  const targets: EncodeTarget[] = parts.map((path) =>
    isFolderOutput(format) ? { kind: "sequence", directory: path, firstFrame: 0 } : { kind: "chunk", path },
  );
  return { targets, assemble: { format, parts, audioFile, palette, into: stagedPath, workDir } };
}

/**
 * The composition's audible clips, shifted to the output's start, when the output takes sound; a
 * format without sound leaves them out and says so.
 */
function audibleClips(request: PlanRequest, clips: readonly AudioClip[], start: number, emit: (event: RenderEvent) => void): AudioClip[] {
  const { format } = request.options;
  if (request.audio === false || isStill(request) || clips.length === 0) return [];
  if (FORMAT_TABLE[format].audio) return shiftClips(clips, start);
  emit({ type: "warning", code: "audio-left-out", message: `the composition has audio, but ${format} has no sound: the output is silent` });
  return [];
}

/**
 * The size frames leave the browser at, when the browser cannot draw as small as the output: the
 * encoder reduces them to `frameSize` (page/device-scale.ts).
 */
function capturedSize(composition: PixelSize, scale: number): PixelSize | undefined {
  const drawn = drawnScale(scale);
  return drawn === scale ? undefined : scaledSize(composition, drawn);
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The plan stage: from the request and the loaded composition, every decision of the render
 * (frames, workers and their ranges, capture, encoder, audio, where each file goes), frozen. Its
 * only outside look is for a hardware encoder when --gpu asks for one.
 */
export async function makePlan(
  request: PlanRequest,
  loaded: Pick<LoadedComposition, "source" | "frameSize" | "info" | "media" | "mode">,
  staging: Staging,
  emit: (event: RenderEvent) => void,
): Promise<RenderPlan> {
  const { options } = request;
  const { source, frameSize, info, media } = loaded;
  const optionName = optionNamer(request);
  const still = isStill(request);
  const hdr = chooseDynamicRange(options, media.hdr, emit);
  const hardware = await chooseHardwareEncoder(options, hdr, optionName, emit);
  const frames = sliceFrames(frameCount(info.duration, options.fps), options.fps, request.frames);
  const totalFrames = frames.end - frames.start;
  const workers = resolveWorkerCount(options.workers, availableParallelism());
  const output = {
    path: staging.output,
    format: options.format,
    still,
    stagedPath: staging.stagedPath,
    workDir: staging.workDir,
    whole: request.frames === undefined,
  };
  const { chunkSize } = request;
  const chunked = chunkSize !== undefined;
  const ranges = chunked ? chunkFrames(totalFrames, chunkSize) : splitFrames(totalFrames, workers);

  const clips = audibleClips(request, media.audio, frames.start / options.fps, emit);
  const audio: AudioMix | undefined =
    clips.length === 0
      ? undefined
      : {
          clips,
          format: options.format,
          fps: options.fps,
          firstFrame: frames.start,
          frames: totalFrames,
          // audibleClips keeps clips for a format with sound only.
          output: join(isFolderOutput(options.format) && !chunked ? staging.stagedPath : staging.workDir, audioFileName(options.format)!),
          workDir: staging.workDir,
        };
  const palette = paletteEncoding(options.format) ? { fps: options.fps, frames: totalFrames, loop: options.gifLoop } : undefined;
  const { targets, assemble } = (chunked ? chunkTargets : encodeTargets)({ ranges, output }, audio?.output, palette);

  return deepFreeze({
    composition: { id: source.id, width: source.width, height: source.height },
    frameSize,
    fps: options.fps,
    frames,
    totalFrames,
    durationSeconds: totalFrames / options.fps,
    durationSource: info.durationSource,
    ranges,
    capture: {
      mode: loaded.mode,
      image: frameImageFormat(options.format),
      jpegQuality: QUALITY_PRESETS[options.quality].jpegQuality,
      reuseFrames: request.reuseFrames ?? true,
    },
    encode: {
      format: options.format,
      fps: options.fps,
      width: frameSize.width,
      height: frameSize.height,
      capturedSize: capturedSize(source, options.scale),
      quality: options.quality,
      crf: options.crf,
      videoBitrate: options.videoBitrate,
      hdr,
      hardware,
    },
    targets,
    audio,
    assemble,
    output,
  });
}
