import { statSync } from "node:fs";
import { resolve } from "node:path";
import { FOLDER_FORMAT, formatOfOutputPath, outputExtension, type RenderOptions } from "@compose/core/options";
import type { RenderRequest } from "@compose/renderer";
import type { CompositionEntry } from "../project/resolve-composition-entry.js";
import { UsageError } from "../usage-error.js";
import { selectFrames, type FrameSelection } from "./frame-selection.js";
import { optionFlag, renderOptionsFromFlags, renderSettingsFromEnvironment, type RenderFlags } from "./render-flags.js";
import { limitsFromFlags } from "./safety-flags.js";

/** What `compose render`'s flags ask for, checked: the composition, its options and frames, the settings of the machine. */
export interface PreparedRender {
  entry: CompositionEntry;
  options: RenderOptions;
  selection: FrameSelection;
  /** The request's fields that are neither the composition, the output nor the options: frames aside, as a batch sets them per row. */
  settings: Omit<RenderRequest, "composition" | "output" | "options" | "frames" | "still">;
}

/**
 * --format, else what the output path asks for (its extension, or a directory for
 * png-sequence); one frame (--frame, --time) is always a PNG image.
 */
function chooseFormat(flags: RenderFlags): string | undefined {
  const still = flags.frame !== undefined || flags.time !== undefined;
  if (still) {
    if (flags.format !== undefined && flags.format !== FOLDER_FORMAT) {
      throw new UsageError(`--${flags.frame !== undefined ? "frame" : "time"} writes one PNG image; leave out --format ${flags.format}`);
    }
    return FOLDER_FORMAT;
  }
  if (flags.format !== undefined || flags.output === undefined) return flags.format;
  const isDirectory = isExistingDirectory(flags.output);
  const choice = formatOfOutputPath(flags.output, isDirectory);
  if (!choice.ok) throw new UsageError(`--output ${flags.output} ${choice.problem}`);
  return choice.format;
}

/** Whether a path names an existing directory; a path that cannot exist (under a file) does not. */
function isExistingDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function defaultOutput(name: string, options: RenderOptions, selection: FrameSelection): string {
  if (selection.still) return `renders/${name}${selection.suffix}.png`;
  return `renders/${name}${selection.suffix}${outputExtension(options.format)}`;
}

/** Checks `compose render PATH`'s flags and finds its composition; every mistake is a UsageError naming the flag. */
export async function prepareRender(pathArg: string, flags: RenderFlags): Promise<PreparedRender> {
  if (flags.output !== undefined && (flags.output.trim() === "" || flags.output === "-")) {
    // An unset shell variable, or a wish for standard output: neither names a place to write.
    throw new UsageError(
      `--output ${JSON.stringify(flags.output)} names no file: give a file name, or a directory for png-sequence (a render cannot write to standard output)`,
    );
  }
  if (flags.image !== undefined && !flags.docker) throw new UsageError("--image names the image of --docker: add --docker, or leave out --image");
  // --fail-fast and --resume default to false; --shared-frames has no default, so either of its forms names it.
  const batchOnly = (["batchConcurrency", "failFast", "resume", "sharedFrames"] as const).find(
    (field) => flags[field] !== undefined && (field === "sharedFrames" || flags[field] !== false),
  );
  if (batchOnly !== undefined && flags.batch === undefined) {
    const given = batchOnly === "sharedFrames" && flags.sharedFrames === false ? "--no-shared-frames" : optionFlag(batchOnly);
    throw new UsageError(`${given} goes with --batch FILE; without it there is one render`);
  }
  // A batch's --output is a template: its {ext} names no format, the flag or the default does.
  const formatFlags = flags.batch !== undefined && flags.output?.includes("{ext}") ? { ...flags, output: undefined } : flags;
  const options = await renderOptionsFromFlags({ ...flags, format: chooseFormat(formatFlags) });
  const selection = selectFrames(flags, options.fps);
  const settings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags), optionName: optionFlag };
  // Loaded once the flags are known to be good: a refused flag need not load the project's file server.
  const { resolveCompositionEntry } = await import("../project/resolve-composition-entry.js");
  const entry = await resolveCompositionEntry(pathArg);
  return { entry, options, selection, settings };
}

/** The one render a prepared render is without --batch: to --output, or to renders/ under its name. */
export function singleRenderRequest({ entry, options, selection, settings }: PreparedRender, output: string | undefined): RenderRequest {
  return {
    composition: entry.file,
    output: resolve(output ?? defaultOutput(entry.name, options, selection)),
    options,
    frames: selection.frames,
    still: selection.still,
    ...settings,
  };
}
