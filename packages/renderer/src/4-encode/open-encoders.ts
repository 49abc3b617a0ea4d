import type { FrameSink } from "../3-capture/frame-sink.js";
import type { RenderPlan } from "../2-plan/render-plan.js";
import { encoderSink } from "./encoder-sink.js";

/** The encode stage, started before the first frame: one ffmpeg per worker range, waiting for frames. */
export function openEncoders(plan: Pick<RenderPlan, "encode" | "ranges" | "targets">): FrameSink[] {
  return plan.ranges.map((range, i) => encoderSink(plan.encode, plan.targets[i]!, range.end - range.start));
}
