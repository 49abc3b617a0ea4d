import { RENDER_OPTIONS, type NetworkMode } from "@compose/core/options";
import { DEFAULT_LIMITS, formatMemorySize, MIN_MEMORY, parseMemorySize, type RenderLimits } from "@compose/renderer/limits";
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

/** A limit flag's value: a size for --max-memory, else a positive whole number; anything else is a usage error. */
function limitOf(field: keyof RenderLimits, text: string): number {
  if (field === "maxMemory") {
    const bytes = parseMemorySize(text);
    if (bytes === undefined || bytes < MIN_MEMORY)
      throw new UsageError(`${flagName(field)} must be a size such as 2G or 512M, at least ${formatMemorySize(MIN_MEMORY)} (got ${text})`);
    return bytes;
  }
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`${flagName(field)} must be a positive whole number (got ${text})`);
  return Number(text);
}

/** The limits the flags raise or lower. */
export function limitsFromFlags(flags: SafetyFlags): Partial<RenderLimits> {
  const limits: Partial<RenderLimits> = {};
  for (const field of Object.keys(DEFAULT_LIMITS) as Array<keyof RenderLimits>) {
    const text = flags[field];
    if (text !== undefined) limits[field] = limitOf(field, text);
  }
  return limits;
}
