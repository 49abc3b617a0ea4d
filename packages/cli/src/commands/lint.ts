import { Option, type Command } from "commander";
import { dirname, relative } from "node:path";
import { lintProject, NETWORK_MODES, type NetworkMode } from "@compose/core";
import { countSeverities, formatLintJson, formatLintText } from "../terminal/lint-report.js";
import { readCompositionFile } from "../project/read-composition-file.js";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import { createLocalWeb, createSubCompositionResolver, fontFamilyCatalog, projectAssetCheck, projectTextLoader } from "@compose/renderer/project";

export function registerLint(program: Command): void {
  program
    .command("lint")
    .description("Check a composition's variable declarations, timing and sub-compositions.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--json", "print the findings as JSON")
    .addOption(new Option("--network <mode>", "the network the render will have: with none, every remote URL the project's packages do not answer is reported as refused").choices([...NETWORK_MODES]).default("public"))
    .action(async (pathArg: string, options: { json?: boolean; network: NetworkMode }) => {
      // Usage errors (a missing path, a binary entry) propagate as UsageError: main prints one line, exit 2.
      const entry = await resolveCompositionEntry(pathArg);
      // Work with paths relative to the current directory so findings and messages print as the user sees them.
      const entryFile = relative(process.cwd(), entry.file);
      const files: string[] = [];
      // The entry's problems are usage errors; an embedded file's are findings (the project-file rule's among them).
      const readEmbedded = projectTextLoader(dirname(entryFile), process.cwd());
      const load = async (file: string): Promise<string | undefined> => {
        const html = file === entryFile ? await readCompositionFile(file) : await readEmbedded(file);
        if (html !== undefined) files.push(file);
        return html;
      };
      const knownFontFamily = await fontFamilyCatalog(dirname(entry.file));
      const projectDir = dirname(entryFile);
      // The packages render answers URLs from, as `compose render` looks them up.
      const local = createLocalWeb({ root: dirname(entry.file), parents: true });
      const assets = { check: projectAssetCheck(projectDir), network: options.network, servedLocally: async (url: string) => (await local.resolve(url)) !== undefined };
      const findings = await lintProject(entryFile, load, createSubCompositionResolver(projectDir), { knownFontFamily, assets });
      process.stdout.write(options.json ? formatLintJson(findings, files) : formatLintText(findings, files));
      process.exitCode = countSeverities(findings).errors > 0 ? 1 : 0;
    });
}
