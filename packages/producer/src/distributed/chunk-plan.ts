import type { FrameRange } from "@compose/renderer";

/**
 * Splits a render's frames into contiguous chunks of `chunkSize` frames (the last may be
 * shorter), in order; every frame is in exactly one chunk and no chunk is empty.
 */
export function chunkRanges(totalFrames: number, chunkSize: number): FrameRange[] {
  if (!Number.isInteger(totalFrames) || totalFrames < 1) throw new RangeError(`totalFrames must be a positive integer (got ${totalFrames})`);
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer (got ${chunkSize})`);
  const ranges: FrameRange[] = [];
  for (let start = 0; start < totalFrames; start += chunkSize) ranges.push({ start, end: Math.min(totalFrames, start + chunkSize) });
  return ranges;
}
