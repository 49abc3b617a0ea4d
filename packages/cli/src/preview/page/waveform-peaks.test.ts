import { describe, expect, it } from "vitest";
import { columnPeaks, PEAKS_PER_SECOND, soundPeaks } from "./waveform-peaks.js";

const RATE = 8000;

/** `seconds` of a tone at `level`, then as long of silence. */
function toneThenSilence(seconds: number, level: number): Float32Array {
  const samples = new Float32Array(2 * seconds * RATE);
  for (let index = 0; index < seconds * RATE; index++) samples[index] = level * Math.sin((2 * Math.PI * 440 * index) / RATE);
  return samples;
}

describe("waveform peaks", () => {
  it("keeps the loudest sample of any channel per window", () => {
    const left = toneThenSilence(0.5, 0.5);
    const right = new Float32Array(left.length);
    right[RATE / 4] = -0.9;
    const peaks = soundPeaks([left, right], RATE);
    expect(peaks.length).toBe(PEAKS_PER_SECOND);
    expect(peaks[10]).toBeCloseTo(0.5, 2);
    expect(peaks[PEAKS_PER_SECOND / 4]).toBeCloseTo(0.9, 5);
    expect(peaks[PEAKS_PER_SECOND - 1]).toBe(0);
  });

  it("gives each column of a clip the peak of its part of the sound, and nothing past its end", () => {
    const peaks = soundPeaks([toneThenSilence(0.5, 0.5)], RATE);
    expect([...columnPeaks(peaks, 0, 1, 4)].map((peak) => peak > 0.4)).toEqual([true, true, false, false]);
    expect([...columnPeaks(peaks, 0.25, 0.5, 2)].map((peak) => peak > 0.4)).toEqual([true, false]);
    expect([...columnPeaks(peaks, 0.5, 2, 4)]).toEqual([0, 0, 0, 0]);
  });
});
