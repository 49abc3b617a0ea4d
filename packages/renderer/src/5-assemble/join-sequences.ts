import { copyFile, readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { isSequenceFrameName, SEQUENCE_AUDIO_FILE, sequenceFrameName } from "../output/output-names.js";
import { throwIfAborted } from "../common/render-error.js";

/**
 * Turns png-sequence parts (folders of frames numbered from 0, in frame order) and the mixed
 * audio into one sequence in `output`: the frames moved and renumbered, the audio copied beside
 * them. The parts are left for their owner to remove.
 */
export async function joinSequences(parts: readonly string[], audioFile: string | undefined, output: string, signal?: AbortSignal): Promise<void> {
  let next = 0;
  for (const part of parts) {
    const frames = (await readdir(part)).filter(isSequenceFrameName).sort();
    for (const name of frames) await rename(join(part, name), join(output, sequenceFrameName(next++)));
    throwIfAborted(signal);
  }
  if (audioFile) await copyFile(audioFile, join(output, SEQUENCE_AUDIO_FILE));
}
