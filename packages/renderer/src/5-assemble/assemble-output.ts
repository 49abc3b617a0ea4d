import { isFolderOutput, paletteEncoding } from "@compose/core";
import type { AssemblePlan } from "../2-plan/render-plan.js";
import { joinSequences } from "./join-sequences.js";
import { joinVideo } from "./join-video.js";
import { makePalettedOutput } from "./paletted-output.js";

/**
 * The assemble stage: the encoded parts joined and the audio muxed in (or put beside a
 * png-sequence), without re-encoding; or a paletted format's lossless parts made into the output.
 */
export function assembleOutput(plan: AssemblePlan, signal: AbortSignal | undefined): Promise<void> {
  if (isFolderOutput(plan.format)) return joinSequences(plan.parts, plan.audioFile, plan.into, signal);
  const encoding = paletteEncoding(plan.format);
  if (encoding && plan.palette) return makePalettedOutput(plan.parts, encoding, plan.palette, plan.into, plan.workDir, signal);
  return joinVideo(plan.parts, plan.format, plan.audioFile, plan.into, plan.workDir, signal);
}
