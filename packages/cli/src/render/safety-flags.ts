import { RENDER_OPTIONS, type NetworkMode } from "@compose/core";
import { DEFAULT_LIMITS, type RenderLimits } from "@compose/renderer/limits";
import { UsageError } from "../usage-error.js";
import { flagName, type FlagsOf } from "./flag-options.js";

/** The caps on what a composition may take, and the network policy: the flags serve and worker share with render. */
export type SafetyFlags = FlagsOf<"serve-worker">;

/** What serve and worker allow when --network is absent: requests may narrow it, not widen it. */
export const OPERATOR_NETWORK: NetworkMode = "public";

/** The operator's network policy of serve and worker. */
export function operatorNetworkFromFlags(flags: SafetyFlags): { mode: NetworkMode; allowHosts: string[]; acceptRequestHosts: boolean } {
  const mode = RENDER_OPTIONS.network.schema.safeParse(flags.network ?? OPERATOR_NETWORK);
  if (!mode.success) throw new UsageError(`${flagName("network")} ${mode.error.issues[0]!.message} (got ${flags.network})`);
  return { mode: mode.data, allowHosts: flags.allowHost ?? [], acceptRequestHosts: flags.acceptRequestHosts ?? false };
}

/** The limits the flags raise or lower; a flag that is not a positive whole number is a usage error. */
export function limitsFromFlags(flags: SafetyFlags): Partial<RenderLimits> {
  const limits: Partial<RenderLimits> = {};
  for (const field of Object.keys(DEFAULT_LIMITS) as Array<keyof RenderLimits>) {
    const text = flags[field];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`${flagName(field)} must be a positive whole number (got ${text})`);
    limits[field] = Number(text);
  }
  return limits;
}
