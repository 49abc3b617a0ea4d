import type { Command } from "commander";
import type { InfoFlags } from "../info/describe-path.js";
import { addDeclaredFlags } from "../render/flag-options.js";

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
  addDeclaredFlags(command, "info", { network: "all" }).action(async (pathArg: string, flags: InfoFlags & { json?: boolean }) => {
    const [{ describePath }, { formatFolderText, formatInfoText }] = await Promise.all([import("../info/describe-path.js"), import("../info/info-text.js")]);
    const { report, pageError } = await describePath(pathArg, flags);
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(report.kind === "folder" ? formatFolderText(report) : formatInfoText(report));
    if (pageError !== undefined) {
      process.stderr.write(`error: the page could not be loaded, so the facts only it knows are missing: ${pageError}\n`);
      process.exitCode = 1;
    }
  });
}
