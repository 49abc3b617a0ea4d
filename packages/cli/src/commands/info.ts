import type { Command } from "commander";
import { resolve } from "node:path";
import { findCompositionEntry } from "@compose/renderer/project";
import { formatFolderText, formatInfoText } from "../info/info-text.js";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import { addDeclaredFlags, type FlagsOf } from "../render/flag-options.js";
import { renderOptionsFromFlags, renderSettingsFromEnvironment } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";

type InfoFlags = FlagsOf<"info"> & { json?: boolean; page?: boolean };

function print(json: boolean, report: object, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : text());
}

export function registerInfo(program: Command): void {
  const command = program
    .command("info")
    .description(
      "What a composition is, without rendering it: id, size, duration and where it comes from, variables, sub-compositions and their instances, media, fonts and how each resolves, the network it reaches for, lint's counts. A folder without an index.html lists its compositions.",
    )
    .argument("[path]", "composition directory (its index.html) or HTML file; a folder without index.html lists the compositions in it", ".")
    .option("--json", "print the facts as one JSON object (its JSON Schema: docs/schemas/info.schema.json, or GET /schemas/info.json of compose serve)")
    .option("--page", "load the page in a browser even when its source settles the duration and the media: the media as probed and the fonts as drawn");
  // The network a render would have by default: info says what such a render does with each URL.
  addDeclaredFlags(command, "info", { network: "all" }).action(async (pathArg: string, flags: InfoFlags) => {
    const json = flags.json ?? false;
    const found = await findCompositionEntry(resolve(pathArg));
    if (found.kind === "no-index") {
      const { folderListing } = await import("../info/folder-listing.js");
      const listing = await folderListing(resolve(pathArg), pathArg);
      if (listing.compositions.length === 0) throw new UsageError(`${pathArg} is a directory without an index.html, and no HTML file in it or one folder down holds a composition`);
      print(json, listing, () => formatFolderText(listing));
      return;
    }
    const entry = await resolveCompositionEntry(pathArg);
    const options = await renderOptionsFromFlags(flags);
    const { describeComposition } = await import("../info/describe-composition.js");
    const { report, pageError } = await describeComposition({ entry, options, loadPage: flags.page ?? false, settings: renderSettingsFromEnvironment(process.env) });
    print(json, report, () => formatInfoText(report));
    if (pageError !== undefined) {
      process.stderr.write(`error: the page could not be loaded, so the facts only it knows are missing: ${pageError}\n`);
      process.exitCode = 1;
    }
  });
}
