import { Option, type Command } from "commander";
import { NETWORK_MODES, type NetworkMode } from "@compose/core";
import { DEFAULT_LIMITS, type RenderLimits } from "@compose/renderer/limits";
import { UsageError } from "../usage-error.js";

/** The caps on what a composition may take, as flags of render, serve and worker. */
export interface SafetyFlags {
  maxFrames?: string;
  maxWidth?: string;
  maxHeight?: string;
  network?: string;
  allowHost?: string[];
  acceptRequestHosts?: boolean;
}

const LIMIT_OPTIONS: Array<{ field: keyof RenderLimits & keyof SafetyFlags; flag: string; what: string }> = [
  { field: "maxFrames", flag: "--max-frames <n>", what: "frames one render may capture" },
  { field: "maxWidth", flag: "--max-width <px>", what: "composition width allowed" },
  { field: "maxHeight", flag: "--max-height <px>", what: "composition height allowed" },
];

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The limits, and the network policy: for `compose render` the render's own (default all); for
 * serve and worker the operator's (default public), which requests may narrow but not widen.
 */
export function addSafetyOptions(command: Command, defaultNetwork: NetworkMode): Command {
  for (const { field, flag, what } of LIMIT_OPTIONS) command.addOption(new Option(flag, `${what} (default: ${DEFAULT_LIMITS[field]})`));
  command.addOption(
    new Option("--network <mode>", `what pages may load: none (the project only), public (also public addresses), all (default: ${defaultNetwork})`),
  );
  command.option("--allow-host <host>", "also allow this host name (or *.domain), whatever it resolves to; repeatable", collect);
  if (defaultNetwork !== "all") command.option("--accept-request-hosts", "let requests add hosts of their own (allowHosts)");
  return command;
}

/** The operator's network policy of serve and worker. */
export function operatorNetworkFromFlags(flags: SafetyFlags): { mode: NetworkMode; allowHosts: string[]; acceptRequestHosts: boolean } {
  const mode = flags.network ?? "public";
  if (!(NETWORK_MODES as readonly string[]).includes(mode)) throw new UsageError(`--network must be one of ${NETWORK_MODES.join(", ")} (got ${mode})`);
  return { mode: mode as NetworkMode, allowHosts: flags.allowHost ?? [], acceptRequestHosts: flags.acceptRequestHosts ?? false };
}

/** The limits the flags raise or lower; a flag that is not a positive whole number is a usage error. */
export function limitsFromFlags(flags: SafetyFlags): Partial<RenderLimits> {
  const limits: Partial<RenderLimits> = {};
  for (const { field, flag } of LIMIT_OPTIONS) {
    const text = flags[field];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`${flag.split(" ")[0]} must be a positive whole number (got ${text})`);
    limits[field] = Number(text);
  }
  return limits;
}
