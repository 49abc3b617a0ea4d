import { parseComposition } from "../html/parse-composition.js";
import type { ParsedComposition, SubCompositionHost } from "../html/types.js";
import { resolveCompositionTiming } from "../metadata/resolve-composition-timing.js";
import { createExplainJsonInAttribute, createLocateInAttribute } from "./locate-in-attribute.js";
import { createReport } from "./report.js";
import { checkFontFamilies } from "./rules/font-families.js";
import { checkDeclarations } from "./rules/declarations.js";
import { checkHostValues } from "./rules/host-values.js";
import { checkInlineMedia } from "./rules/inline-media.js";
import { checkOtherRenderer } from "./rules/other-renderer.js";
import { checkDuration, checkEvenSize } from "./rules/render-refusals.js";
import { checkRootSize } from "./rules/root-size.js";
import type { EmbeddedComposition, LintRule } from "./rules/rule.js";
import { checkStructure } from "./rules/structure.js";
import { checkTiming } from "./rules/timing.js";
import { checkTrackOverlap } from "./rules/track-overlap.js";
import type { LintFinding } from "./types.js";

export interface LintCompositionOptions {
  /** Named in every finding. */
  file: string;
  /** The compositions this file embeds, when known (lintProject knows them). */
  embedded?: (host: SubCompositionHost) => EmbeddedComposition | undefined;
  /** The file is reached only through hosts (lintProject sets it for every file but the entry). */
  embeddedOnly?: boolean;
  /** Whether a font family can be drawn here; the font rule runs only when it is given. */
  knownFontFamily?: (family: string) => boolean;
}

const RULES: LintRule[] = [
  checkStructure,
  checkRootSize,
  checkDuration,
  checkEvenSize,
  checkDeclarations,
  checkHostValues,
  checkTiming,
  checkTrackOverlap,
  checkInlineMedia,
  checkOtherRenderer,
  checkFontFamilies,
];

/** Lints one composition file on its own; lintProject also follows the files it embeds. */
export function lintComposition(html: string, options: LintCompositionOptions): LintFinding[] {
  return lintParsedComposition(parseComposition(html, { file: options.file }), html, options).findings;
}

export function lintParsedComposition(
  parsed: ParsedComposition,
  html: string,
  options: LintCompositionOptions,
): { findings: LintFinding[]; summary: EmbeddedComposition } {
  const embedded = options.embedded ?? (() => undefined);
  const timing = resolveCompositionTiming(parsed, (host) => embedded(host)?.duration);
  const { report, findings } = createReport(options.file);
  const locateInAttribute = createLocateInAttribute(html);
  const explainJsonInAttribute = createExplainJsonInAttribute(html, locateInAttribute);
  const context = {
    parsed,
    timing,
    embedded,
    locateInAttribute,
    explainJsonInAttribute,
    report,
    embeddedOnly: options.embeddedOnly ?? false,
    html,
    knownFontFamily: options.knownFontFamily,
  };
  for (const rule of RULES) rule(context);
  return { findings: sortByPosition(findings), summary: { variables: parsed.declarations.variables, duration: timing.duration } };
}

export function sortByPosition(findings: LintFinding[]): LintFinding[] {
  return findings.sort((a, b) => a.line - b.line || a.column - b.column);
}
