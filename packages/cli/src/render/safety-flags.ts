import { Option, type Command } from "commander";
import { DEFAULT_LIMITS, type RenderLimits } from "@compose/renderer/limits";
import { UsageError } from "../usage-error.js";

/** The caps on what a composition may take, as flags of render, serve and worker. */
export interface SafetyFlags {
  maxFrames?: string;
  maxWidth?: string;
  maxHeight?: string;
}

const LIMIT_OPTIONS: Array<{ field: keyof RenderLimits & keyof SafetyFlags; flag: string; what: string }> = [
  { field: "maxFrames", flag: "--max-frames <n>", what: "frames one render may capture" },
  { field: "maxWidth", flag: "--max-width <px>", what: "composition width allowed" },
  { field: "maxHeight", flag: "--max-height <px>", what: "composition height allowed" },
];

export function addSafetyOptions(command: Command): Command {
  for (const { field, flag, what } of LIMIT_OPTIONS) command.addOption(new Option(flag, `${what} (default: ${DEFAULT_LIMITS[field]})`));
  return command;
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
