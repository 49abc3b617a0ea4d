import { writeFile } from "node:fs/promises";
import type { GainSamples } from "../page/composition-page.js";
import { AUDIO_SAMPLE_RATE } from "./audio-mix-args.js";

/**
 * The gain of each media key at every output frame (frame 0 = composition frame `firstFrame`),
 * from the pages' logs; undefined when no gain ever differs from 1, so the mix needs no envelope.
 * A frame no page recorded keeps the gain of the frame before it.
 */
export function frameGains(
  logs: readonly GainSamples[],
  keys: readonly string[],
  fps: number,
  firstFrame: number,
  frames: number,
): Map<string, Float64Array> | undefined {
  const byKey = new Map(keys.map((key) => [key, new Float64Array(frames).fill(Number.NaN)]));
  let varies = false;
  for (const log of logs) {
    for (const [t, gains] of log) {
      const frame = Math.round(t * fps) - firstFrame;
      if (frame < 0 || frame >= frames) continue;
      for (const [key, values] of byKey) {
        const gain = gains[key];
        if (gain === undefined) continue;
        values[frame] = gain;
        varies ||= gain !== 1;
      }
    }
  }
  if (!varies) return undefined;
  for (const values of byKey.values()) {
    let last = 1;
    for (let i = 0; i < values.length; i++) last = values[i] = Number.isNaN(values[i]!) ? last : values[i]!;
  }
  return byKey;
}

/**
 * Writes a gain envelope as mono 32-bit float samples at the mix's rate, `seconds` long: the
 * gain at each frame's time, joined by straight lines so a fade has no steps (no clicks).
 */
export async function writeEnvelope(file: string, gains: Float64Array, fps: number, seconds: number): Promise<void> {
  const count = Math.round(seconds * AUDIO_SAMPLE_RATE);
  const samples = new Float32Array(count);
  const last = gains.length - 1;
  for (let i = 0; i < count; i++) {
    const position = (i / AUDIO_SAMPLE_RATE) * fps;
    const frame = Math.min(last, Math.floor(position));
    const next = Math.min(last, frame + 1);
    const fraction = Math.min(1, position - frame);
    samples[i] = gains[frame]! + (gains[next]! - gains[frame]!) * fraction;
  }
  await writeFile(file, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
}
