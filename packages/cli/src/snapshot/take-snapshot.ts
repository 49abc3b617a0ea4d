import { extname, resolve } from "node:path";
import { FOLDER_FORMAT, type SnapshotOutput } from "@compose/core";
import type { RenderHooks } from "@compose/renderer";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import type { FlagsOf } from "../render/flag-options.js";
import { optionFlag, renderOptionsFromFlags, renderSettingsFromEnvironment } from "../render/render-flags.js";
import { limitsFromFlags } from "../render/safety-flags.js";
import { UsageError } from "../usage-error.js";
import { momentsFromFlags, type MomentFlags } from "./moment-flags.js";

export type SnapshotFlags = FlagsOf<"snapshot"> & MomentFlags & { output?: string; framesDir?: string };

/** The contact sheet's file, or the frames' directory, from --output and --frames-dir. */
function snapshotOutput(flags: SnapshotFlags, name: string): { sheet: string } | { framesDir: string } {
  if (flags.output !== undefined && flags.framesDir !== undefined)
    throw new UsageError("--output and --frames-dir cannot be combined: a snapshot is one contact sheet, or the frames as files");
  if (flags.framesDir !== undefined) {
    if (flags.framesDir.trim() === "") throw new UsageError("--frames-dir names no directory");
    return { framesDir: resolve(flags.framesDir) };
  }
  const sheet = flags.output ?? `renders/${name}-snapshot.png`;
  if (extname(sheet).toLowerCase() !== ".png")
    throw new UsageError(`--output must name a .png file, the contact sheet (got ${JSON.stringify(sheet)}); --frames-dir writes the frames as files`);
  return { sheet: resolve(sheet) };
}

/**
 * `compose snapshot PATH`: the moments the flags ask for, captured as a render captures them; a
 * mistake in the flags is a UsageError, a failure of the capture a RenderError.
 */
export async function takeSnapshot(pathArg: string, flags: SnapshotFlags, hooks: RenderHooks): Promise<SnapshotOutput> {
  const moments = momentsFromFlags(flags);
  const options = await renderOptionsFromFlags({ ...flags, format: FOLDER_FORMAT });
  const settings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags) };
  const entry = await resolveCompositionEntry(pathArg);
  const output = snapshotOutput(flags, entry.name);
  // Loaded here, not at the top: the browser driver would slow every other command's start.
  const { snapshot } = await import("@compose/renderer");
  return snapshot({ composition: entry.file, options, moments, output, ...settings, optionName: optionFlag }, hooks);
}
