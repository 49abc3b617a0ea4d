import { resolve } from "node:path";
import type { InfoOutput } from "@compose/core";
import { findCompositionEntry } from "@compose/renderer/project";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import type { FlagsOf } from "../render/flag-options.js";
import { renderOptionsFromFlags, renderSettingsFromEnvironment } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";

export type InfoFlags = FlagsOf<"info"> & { page?: boolean };

export interface PathDescription {
  /** What `compose info --json` prints. */
  report: InfoOutput;
  /** Why the page that was needed could not be loaded: the facts it would give are missing. */
  pageError?: string | undefined;
}

/**
 * `compose info PATH`: a composition's facts, or for a folder without an index.html the
 * compositions in it; a path that names neither is a usage error.
 */
export async function describePath(pathArg: string, flags: InfoFlags): Promise<PathDescription> {
  const found = await findCompositionEntry(resolve(pathArg));
  if (found.kind === "no-index") {
    const { folderListing } = await import("./folder-listing.js");
    const listing = await folderListing(resolve(pathArg), pathArg);
    if (listing.compositions.length === 0)
      throw new UsageError(`${pathArg} is a directory without an index.html, and no HTML file in it or one folder down holds a composition`);
    return { report: listing };
  }
  const entry = await resolveCompositionEntry(pathArg);
  const options = await renderOptionsFromFlags(flags);
  const { describeComposition } = await import("./describe-composition.js");
  return describeComposition({ entry, options, loadPage: flags.page ?? false, settings: renderSettingsFromEnvironment(process.env) });
}
