import { parseComposition } from "../html/parse-composition.js";
import type { SubCompositionHost } from "../html/types.js";
import { FONT_PACKAGE_CODE, LINT_CODES, PROJECT_FILE_CODE } from "./codes.js";
import { quote } from "../text/quote.js";
import { lintParsedComposition, sortByPosition } from "./lint-composition.js";
import { createReport, type Report } from "./report.js";
import type { EmbeddedComposition } from "./rules/rule.js";
import type { FontPackageProblem, LintFinding } from "./types.js";
import { createAssetLint, type AssetLintOptions } from "./asset-files.js";

/**
 * Reads a file; undefined when it does not exist. A rejection is reported as unreadable, or with
 * `code: PROJECT_FILE_CODE` as a refusal of the project-file rule, its message saying why.
 */
export type LoadFile = (path: string) => Promise<string | undefined>;
/** The path of the file `src` names, as written in a host inside `fromFile`. */
export type ResolvePath = (fromFile: string, src: string) => string;

type Loaded = { kind: "linted"; summary: EmbeddedComposition } | { kind: "missing" } | { kind: "unreadable" | "refused"; reason: string };

/**
 * Lints the entry and every composition it embeds, recursively. Each file is linted once however
 * often it is embedded; a file that embeds itself through a chain is reported with the chain.
 * Findings come file by file, the entry first. Rejects only when the entry cannot be loaded.
 */
export async function lintProject(
  entryFile: string,
  load: LoadFile,
  resolvePath: ResolvePath,
  options: { knownFontFamily?: (family: string) => boolean; fontPackageProblems?: FontPackageProblem[]; assets?: AssetLintOptions } = {},
): Promise<LintFinding[]> {
  const entryHtml = await load(entryFile);
  if (entryHtml === undefined) throw new Error(`composition file not found: ${entryFile}`);
  const findingsByFile = new Map<string, LintFinding[]>();
  const loaded = new Map<string, Loaded>();
  // A style sheet's findings are its own file's, listed once it is reached.
  const reportIn = (file: string): Report => {
    const { report, findings } = createReport(file);
    findingsByFile.set(file, findings);
    return report;
  };
  const lintAssets = options.assets && createAssetLint(options.assets, { resolvePath, load, reportIn });

  const lintFile = async (file: string, html: string, chain: string[]): Promise<EmbeddedComposition> => {
    // Reserve the file's place now so the output lists files in the order they are reached.
    findingsByFile.set(file, []);
    const parsed = parseComposition(html, { file });
    const { report, findings: hostFindings } = createReport(file);
    const embedded = new Map<SubCompositionHost, EmbeddedComposition>();
    for (const host of parsed.hosts) {
      const summary = await embed(host, file, [...chain, file], report);
      if (summary !== undefined) embedded.set(host, summary);
    }
    await lintAssets?.(file, parsed.references, report);
    const result = lintParsedComposition(parsed, html, {
      file,
      embedded: (host) => embedded.get(host),
      embeddedOnly: chain.length > 0,
      knownFontFamily: options.knownFontFamily,
    });
    findingsByFile.set(file, sortByPosition(hostFindings.concat(result.findings)));
    return result.summary;
  };

  const embed = async (host: SubCompositionHost, file: string, chain: string[], report: Report): Promise<EmbeddedComposition | undefined> => {
    const name = `host ${quote(host.id ?? host.src)}`;
    if (host.src.trim() === "") {
      report("sub-composition-missing", host.loc, `${name} has an empty data-composition-src; it must name a composition file`);
      return undefined;
    }
    const child = resolvePath(file, host.src);
    if (chain.includes(child)) {
      const cycle = [...chain.slice(chain.indexOf(child)), child];
      report("sub-composition-cycle", host.loc, `${name} embeds ${quote(host.src)}, which embeds itself: ${cycle.join(" -> ")}`);
      return undefined;
    }
    const state = loaded.get(child) ?? (await loadAndLint(child, chain));
    loaded.set(child, state);
    if (state.kind === "missing") report("sub-composition-missing", host.loc, `${name} embeds ${quote(host.src)}, which does not exist (${child})`);
    if (state.kind === "refused") report(PROJECT_FILE_CODE, host.loc, `${name} embeds ${quote(host.src)}, which is refused: ${state.reason}`);
    if (state.kind === "unreadable") report("sub-composition-unreadable", host.loc, `${name} embeds ${quote(host.src)}, which cannot be read: ${state.reason}`);
    return state.kind === "linted" ? state.summary : undefined;
  };

  const loadAndLint = async (file: string, chain: string[]): Promise<Loaded> => {
    let html: string | undefined;
    try {
      html = await load(file);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: (error as { code?: unknown }).code === PROJECT_FILE_CODE ? "refused" : "unreadable", reason };
    }
    return html === undefined ? { kind: "missing" } : { kind: "linted", summary: await lintFile(file, html, chain) };
  };

  await lintFile(entryFile, entryHtml, []);
  return [...findingsByFile.values()].flat().concat((options.fontPackageProblems ?? []).map(fontPackageFinding));
}

/** A font package file the caller found unusable, as the finding that names it. */
function fontPackageFinding({ file, line, column, problem }: FontPackageProblem): LintFinding {
  return { file, line: line ?? 1, column: column ?? 1, severity: LINT_CODES[FONT_PACKAGE_CODE], code: FONT_PACKAGE_CODE, message: problem };
}
