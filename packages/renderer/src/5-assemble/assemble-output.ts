import type { AssemblePlan } from "../2-plan/render-plan.js";
import { joinVideo } from "./join-video.js";

/** The assemble stage: the encoded parts joined and the audio muxed in, without re-encoding. */
export function assembleOutput(plan: AssemblePlan, signal: AbortSignal | undefined): Promise<void> {
  return joinVideo(plan.parts, plan.format, plan.audioFile, plan.into, plan.workDir, signal);
}
