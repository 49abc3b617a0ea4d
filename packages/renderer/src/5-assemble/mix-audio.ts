import { join } from "node:path";
import type { CompositionPage } from "../page/composition-page.js";
import { runFfmpeg } from "../common/ffmpeg-process.js";
import { mixArgs } from "./audio-mix-args.js";
import type { AudioMix } from "../2-plan/render-plan.js";
import { frameGains, writeEnvelope } from "./volume-envelope.js";

/**
 * Gain envelopes for the mix from the gains the pages recorded while they were seeked, one file
 * per clip; none when every gain stayed 1 (a fixed data-volume needs no envelope).
 */
export async function gainEnvelopes(pages: readonly CompositionPage[], mix: AudioMix): Promise<string[] | undefined> {
  const logs = await Promise.all(pages.map((page) => page.gainLog()));
  const gains = frameGains(
    logs,
    mix.clips.map((clip) => clip.key),
    mix.fps,
    mix.firstFrame,
    mix.frames,
  );
  if (!gains) return undefined;
  return Promise.all(
    mix.clips.map(async (clip, i) => {
      const file = join(mix.workDir, `gain-${i}.f32`);
      await writeEnvelope(file, gains.get(clip.key)!, mix.fps, mix.frames / mix.fps);
      return file;
    }),
  );
}

/** Mixes the clips into the output, each multiplied by its envelope when there are envelopes. */
export function mixAudio(mix: AudioMix, envelopes: readonly string[] | undefined, signal: AbortSignal | undefined): Promise<void> {
  return runFfmpeg(mixArgs(mix.clips, mix.frames / mix.fps, mix.format, mix.output, envelopes), signal);
}
