import type { DurationSource, FrameRate, OutputFormat, QualityName } from "@compose/core";
import type { CaptureMode, FrameImageSettings } from "../page/frame-capturer.js";
import type { FrameRange } from "../common/frame-ranges.js";
import type { HardwareEncoder } from "../common/hardware-encoder.js";
import type { AudioClip } from "../media/audio-clip.js";
import type { HdrTransfer } from "../media/probe-source.js";
import type { PixelSize } from "../common/scaled-size.js";

/**
 * Everything a render decided before its first frame: made once by makePlan() from the request
 * and the loaded composition, frozen, and handed out in parts: capture takes `capture` and
 * `ranges`, encode takes `encode` and `targets`, the audio mix takes `audio`, assemble takes
 * `assemble` and `output`.
 */
export interface RenderPlan {
  /** The composition's id and size in CSS pixels, at which its pages are laid out. */
  readonly composition: { readonly id: string; readonly width: number; readonly height: number };
  /** The size of the output's frames: the composition's at the render's scale. */
  readonly frameSize: Readonly<PixelSize>;
  readonly fps: FrameRate;
  /** The composition frames rendered (end exclusive): output frame n is composition frame `frames.start + n`. */
  readonly frames: FrameRange;
  readonly totalFrames: number;
  readonly durationSeconds: number;
  readonly durationSource: DurationSource;
  /** Output frames per worker: contiguous, never empty, one browser page each. */
  readonly ranges: readonly FrameRange[];
  readonly capture: CapturePlan;
  readonly encode: EncodeSettings;
  /** Where each range's encoder writes, parallel to `ranges`. */
  readonly targets: readonly EncodeTarget[];
  /** The composition's audio for the output's frames, when any of it is audible. */
  readonly audio: AudioMix | undefined;
  /** What is left after capture; undefined when the encoders wrote the output itself. */
  readonly assemble: AssemblePlan | undefined;
  readonly output: OutputPlan;
}

/** How a render takes its frames: the image, and whether the page's word that nothing changed is taken. */
export interface FrameSettings extends FrameImageSettings {
  reuseFrames: boolean;
}

export interface CapturePlan extends FrameSettings {
  readonly mode: CaptureMode;
}

export interface EncodeSettings {
  format: OutputFormat;
  fps: number;
  /** The output's frame size in pixels. */
  width: number;
  height: number;
  /**
   * The size frames leave the browser at when it is larger than the output's: a scale below the
   * smallest a browser draws at (page/device-scale.ts) is drawn at that and reduced by the encoder.
   */
  capturedSize?: PixelSize | undefined;
  quality: QualityName;
  crf?: number | undefined;
  videoBitrate?: string | undefined;
  /** HDR output (mp4 only): HEVC 10-bit BT.2020 with this transfer. */
  hdr?: HdrTransfer | undefined;
  /** A hardware H.264 encoder found by a trial encode (mp4, SDR). */
  hardware?: HardwareEncoder | undefined;
}

/** Where one encoder writes: a whole file, a chunk to be joined, or frames of a sequence from `firstFrame` on. */
export type EncodeTarget = { kind: "file"; path: string } | { kind: "chunk"; path: string } | { kind: "sequence"; directory: string; firstFrame: number };

export interface AudioMix {
  clips: readonly AudioClip[];
  format: OutputFormat;
  fps: number;
  /** The composition frame the output's frame 0 is, and how many frames the output has. */
  firstFrame: number;
  frames: number;
  /** The mixed audio file: in the work directory, or beside a png-sequence's frames. */
  output: string;
  /** Where the gain envelopes are written. */
  workDir: string;
}

/**
 * Encoded video parts, in frame order, joined without re-encoding, with the mixed audio muxed in;
 * or for a paletted format (`palette`), lossless parts made into the output in two passes.
 */
export interface AssemblePlan {
  readonly format: OutputFormat;
  readonly parts: readonly string[];
  readonly audioFile: string | undefined;
  /** For a paletted format: the frames' rate and count, and how many times the output repeats (the gifLoop option). */
  readonly palette?: PaletteOutput | undefined;
  /** The staged output the result is written to. */
  readonly into: string;
  readonly workDir: string;
}

export interface PaletteOutput {
  readonly fps: number;
  readonly frames: number;
  readonly loop: number;
}

export interface OutputPlan {
  /** Where the user asked for the output: a file, or a directory for png-sequence. */
  readonly path: string;
  readonly format: OutputFormat;
  /** One frame as one PNG file. */
  readonly still: boolean;
  /** Where it is written until it is committed (output/staged-output.ts). */
  readonly stagedPath: string;
  /** Private scratch space: chunks, the silent video, the audio, the gain envelopes. */
  readonly workDir: string;
  /** The whole composition, not a slice: only a whole render is checked for being one flat colour. */
  readonly whole: boolean;
}
