import { frameCount } from "@compose/core/options";
import { RenderError } from "../../common/render-error.js";
import type { PixelSize } from "../../common/scaled-size.js";

// --max-memory takes a size: the CLI reads and shows it as the renderer does.
export { formatMemorySize, MIN_MEMORY, parseMemorySize } from "../../common/memory-size.js";

/** Caps that keep one composition from taking a machine; whoever runs the renderer may raise them. */
export interface RenderLimits {
  /** Frames one render may capture. */
  maxFrames: number;
  /** Output width and height in pixels: the composition's at the render's scale. */
  maxWidth: number;
  maxHeight: number;
  /** Bytes of memory one page's browser may hold: script heap, typed arrays, canvases, images, the compositor's tiles. */
  maxMemory: number;
}

/** An hour at 30 fps; 8K; 2 GiB per page. */
export const DEFAULT_LIMITS: RenderLimits = { maxFrames: 108_000, maxWidth: 7680, maxHeight: 4320, maxMemory: 2 * 1024 ** 3 };

export function resolveLimits(limits: Partial<RenderLimits> | undefined): RenderLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}

/**
 * Checks the size of the output's frames (`frames`); `composition` is its size in CSS pixels,
 * which differs when the render is scaled (`scale` names the option as its user knows it).
 */
export function checkSize(id: string, composition: PixelSize, frames: PixelSize, limits: RenderLimits, scale: string): void {
  if (frames.width <= limits.maxWidth && frames.height <= limits.maxHeight) return;
  const scaled = frames.width !== composition.width || frames.height !== composition.height;
  const size = scaled
    ? `renders at ${frames.width}x${frames.height} px (${composition.width}x${composition.height} at ${scale})`
    : `is ${frames.width}x${frames.height} px`;
  throw new RenderError(
    "limit-exceeded",
    `${id} ${size}, over the limit of ${limits.maxWidth}x${limits.maxHeight}: make it smaller${scaled ? ", lower the scale" : ""}, or raise the limit with --max-width and --max-height`,
  );
}

/** Checks the frames of a composition lasting `durationSeconds` at `fps`. */
export function checkFrames(id: string, durationSeconds: number, fps: number, limits: RenderLimits): void {
  const frames = Number.isFinite(durationSeconds) ? frameCount(durationSeconds, fps) : Infinity;
  if (frames <= limits.maxFrames) return;
  throw new RenderError(
    "limit-exceeded",
    `${id} lasts ${durationSeconds} s, ${frames} frames at ${fps} fps, over the limit of ${limits.maxFrames} frames: shorten it, or raise the limit with --max-frames`,
  );
}
