import { frameCount } from "@compose/core";
import { RenderError } from "../../common/render-error.js";

// --max-memory takes a size: the CLI reads and shows it as the renderer does.
export { formatMemorySize, MIN_MEMORY, parseMemorySize } from "../../common/memory-size.js";

/** Caps that keep one composition from taking a machine; whoever runs the renderer may raise them. */
export interface RenderLimits {
  /** Frames one render may capture. */
  maxFrames: number;
  /** Composition width and height in pixels. */
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

export function checkSize(id: string, width: number, height: number, limits: RenderLimits): void {
  if (width <= limits.maxWidth && height <= limits.maxHeight) return;
  throw new RenderError(
    "limit-exceeded",
    `${id} is ${width}x${height} px, over the limit of ${limits.maxWidth}x${limits.maxHeight}: make it smaller, or raise the limit with --max-width and --max-height`,
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
