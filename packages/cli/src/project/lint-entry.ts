import { dirname, relative } from "node:path";
import { lintProject, type AssetReference, type LintFinding, type LintOutput, type NetworkMode } from "@compose/core";
import {
  createLocalWeb,
  createSubCompositionResolver,
  fontFamilyCatalog,
  projectAssetCheck,
  projectTextLoader,
  type FontCatalog,
} from "@compose/renderer/project";
import { lintOutput } from "../terminal/lint-report.js";
import { readCompositionFile } from "./read-composition-file.js";
import { resolveCompositionEntry, type CompositionEntry } from "./resolve-composition-entry.js";

/** What `compose lint` found in a composition, and the files it read: paths relative to the current directory. */
export interface LintedEntry {
  findings: LintFinding[];
  /** Every file linted, in the order reached: the entry, the compositions it embeds, their style sheets. */
  files: string[];
  /** Each file's text, by its path in `files`. */
  texts: Map<string, string>;
  /** The fonts the project can draw, as lint judged the families its files name. */
  fonts: FontCatalog;
}

/**
 * Lints the entry and what it embeds as `compose lint` does: the entry's problems are usage
 * errors, an embedded file's are findings (the project-file rule's among them). `onRemote` hears
 * of every remote URL a file makes the page load.
 */
export async function lintEntry(
  entry: CompositionEntry,
  network: NetworkMode,
  onRemote?: (file: string, reference: AssetReference) => void,
): Promise<LintedEntry> {
  // Paths relative to the current directory, so findings and messages print as the user sees them.
  const entryFile = relative(process.cwd(), entry.file);
  const projectDir = dirname(entryFile);
  const texts = new Map<string, string>();
  const readEmbedded = projectTextLoader(projectDir, process.cwd());
  const load = async (file: string): Promise<string | undefined> => {
    const text = file === entryFile ? await readCompositionFile(file) : await readEmbedded(file);
    if (text !== undefined) texts.set(file, text);
    return text;
  };
  const fonts = await fontFamilyCatalog(dirname(entry.file), projectDir);
  // The packages render answers URLs from, as `compose render` looks them up.
  const local = createLocalWeb({ root: dirname(entry.file), parents: true });
  const servedLocally = async (url: string) => (await local.resolve(url)) !== undefined;
  const assets = { check: projectAssetCheck(projectDir), network, onRemote, servedLocally };
  const findings = await lintProject(entryFile, load, createSubCompositionResolver(projectDir), {
    knownFontFamily: fonts.known,
    fontPackageProblems: fonts.problems,
    assets,
  });
  return { findings, files: [...texts.keys()], texts, fonts };
}

/** `compose lint PATH`: the entry PATH names, linted; a path that names no composition is a usage error. */
export async function lintPath(pathArg: string, network: NetworkMode): Promise<LintOutput> {
  const { findings, files } = await lintEntry(await resolveCompositionEntry(pathArg), network);
  return lintOutput(findings, files);
}
