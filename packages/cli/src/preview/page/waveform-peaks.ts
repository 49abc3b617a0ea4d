// The loudness of a sound over time, as a timeline's waveform draws it. No DOM here.

/** Peaks per second of sound kept for drawing: finer than a pixel at the timeline's zooms. */
export const PEAKS_PER_SECOND = 200;

/** The largest absolute sample of any channel in each 1/PEAKS_PER_SECOND s window, from 0 to 1. */
export function soundPeaks(channels: readonly Float32Array[], sampleRate: number): Float32Array {
  const length = channels[0]?.length ?? 0;
  const window = sampleRate / PEAKS_PER_SECOND;
  const peaks = new Float32Array(Math.ceil(length / window));
  for (const samples of channels) {
    for (let index = 0; index < length; index++) {
      const bucket = Math.floor(index / window);
      const level = Math.abs(samples[index]!);
      if (level > peaks[bucket]!) peaks[bucket] = Math.min(1, level);
    }
  }
  return peaks;
}

/**
 * The peak under each of `columns` columns of a clip that plays the sound from `from` seconds
 * for `seconds` of the sound's own time: 0 past the sound's end.
 */
export function columnPeaks(peaks: Float32Array, from: number, seconds: number, columns: number): Float32Array {
  const result = new Float32Array(columns);
  for (let column = 0; column < columns; column++) {
    const first = Math.floor((from + (seconds * column) / columns) * PEAKS_PER_SECOND);
    const last = Math.max(first + 1, Math.floor((from + (seconds * (column + 1)) / columns) * PEAKS_PER_SECOND));
    for (let index = Math.max(0, first); index < Math.min(last, peaks.length); index++) result[column] = Math.max(result[column]!, peaks[index]!);
  }
  return result;
}
