export interface FrameRange {
  /** First frame, inclusive. */
  start: number;
  /** Last frame, exclusive. */
  end: number;
}

/** Splits frames into contiguous ranges of near-equal size, one per worker; never an empty range. */
export function splitFrames(totalFrames: number, workers: number): FrameRange[] {
  const count = Math.max(1, Math.min(workers, totalFrames));
  const ranges: FrameRange[] = [];
  for (let i = 0; i < count; i++) {
    ranges.push({
      start: Math.floor((totalFrames * i) / count),
      end: Math.floor((totalFrames * (i + 1)) / count),
    });
  }
  return ranges;
}

/** The composition time of a frame: frames sit at exact multiples of 1/fps. */
export function frameTime(frame: number, fps: number): number {
  return frame / fps;
}

/**
 * Cuts frames into contiguous chunks of `chunkSize` frames (the last may be shorter), in order:
 * the ranges of a render split across machines.
 */
export function chunkFrames(totalFrames: number, chunkSize: number): FrameRange[] {
  if (!Number.isInteger(totalFrames) || totalFrames < 1) throw new RangeError(`totalFrames must be a positive integer (got ${totalFrames})`);
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer (got ${chunkSize})`);
  const ranges: FrameRange[] = [];
  for (let start = 0; start < totalFrames; start += chunkSize) ranges.push({ start, end: Math.min(totalFrames, start + chunkSize) });
  return ranges;
}
