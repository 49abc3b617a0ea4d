import type { ParsedComposition, SubCompositionHost } from "../../html/types.js";
import type { CompositionTiming } from "../../metadata/resolve-composition-timing.js";
import type { CompositionVariable } from "../../variables/types.js";
import type { ExplainJsonInAttribute, LocateInAttribute } from "../locate-in-attribute.js";
import type { Report } from "../report.js";

/** What lint knows about a composition file that another one embeds. */
export interface EmbeddedComposition {
  variables: CompositionVariable[];
  duration: number | undefined;
}

export interface LintContext {
  parsed: ParsedComposition;
  timing: CompositionTiming;
  /** Undefined when the embedded file is unknown (linting one file alone) or could not be read. */
  embedded: (host: SubCompositionHost) => EmbeddedComposition | undefined;
  locateInAttribute: LocateInAttribute;
  explainJsonInAttribute: ExplainJsonInAttribute;
  /** The file is linted as embedded by another: hosts give it its duration, so it needs none. */
  embeddedOnly: boolean;
  report: Report;
  /** The file's text, for rules that read what the parsed tree does not keep (CSS). */
  html: string;
  /** Whether a font family can be drawn on this machine; unknown (the font rule does not run) when undefined. */
  knownFontFamily?: (family: string) => boolean;
}

export type LintRule = (context: LintContext) => void;
