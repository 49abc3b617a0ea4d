import { HARDWARE_ENCODERS, type HardwareEncoder } from "../common/hardware-encoder.js";
import { RenderError } from "../common/render-error.js";
import { deepFreeze } from "./make-plan.js";
import type { RenderPlan } from "./render-plan.js";

/** A plan as text, to be handed to other machines: a hardware encoder goes by its name. */
export function planToJson(plan: RenderPlan): string {
  return JSON.stringify(plan, (key, value: unknown) => (key === "hardware" && value ? (value as HardwareEncoder).name : value));
}

/** A plan that planToJson wrote, frozen as makePlan makes it. */
export function planFromJson(text: string): RenderPlan {
  const plan = JSON.parse(text, (key, value: unknown) => {
    if (key !== "hardware" || typeof value !== "string") return value;
    const encoder = HARDWARE_ENCODERS.find((candidate) => candidate.name === value);
    if (!encoder) throw new RenderError("encode-failed", `the plan names the hardware encoder ${value}, which this renderer does not have`);
    return encoder;
  }) as RenderPlan;
  return deepFreeze(plan);
}
