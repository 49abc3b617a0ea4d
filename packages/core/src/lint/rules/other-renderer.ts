import type { SourceLocation } from "../../html/types.js";
import type { LintCode } from "../codes.js";
import type { LintRule } from "./rule.js";

/*
 * Markers of compositions written for the other renderer of this HTML contract, each with what
 * does the same job here.
 */

const SCRIPT_MARKERS: Array<{ code: LintCode; pattern: RegExp; message: (found: string) => string }> = [
  {
    code: "foreign-runtime-api",
    pattern: /\b__hyperframes\b/,
    message: () => "window.__hyperframes is the other renderer's API and does not exist here: use window.__compose (getVariables(), onSeek(fn))",
  },
  {
    code: "foreign-adapter-global",
    pattern: /\b__hf[A-Za-z0-9_$]*/,
    message: (found) =>
      `${found} is an adapter global of the other renderer and nothing calls it here: register GSAP timelines in window.__timelines, or draw from __compose.onSeek(t => ...) or the clock (requestAnimationFrame, timers)`,
  },
  {
    code: "foreign-seek-event",
    pattern: /["'`]hf-seek["'`]/,
    message: () => `the "hf-seek" event of the other renderer never fires here: use __compose.onSeek(t => ...) or the clock (requestAnimationFrame, timers)`,
  },
];

const ATTRIBUTE_MARKERS: Partial<Record<string, { code: LintCode; message: string }>> = {
  "data-no-timeline": {
    code: "foreign-no-timeline",
    message: "data-no-timeline is the other renderer's and means nothing here (a composition without a GSAP timeline needs no marker): remove it",
  },
  "data-fps": {
    code: "foreign-fps",
    message: "data-fps is ignored: the frame rate is chosen at render time with --fps (24, 30 or 60)",
  },
};

/** The position of `index` in a text that starts at `start`. */
function positionIn(text: string, index: number, start: SourceLocation): SourceLocation {
  const before = text.slice(0, index);
  const lines = before.split("\n");
  const line = start.line + lines.length - 1;
  const column = lines.length === 1 ? start.column + before.length : lines.at(-1)!.length + 1;
  return { line, column, offset: start.offset + index };
}

export const checkOtherRenderer: LintRule = ({ parsed, report }) => {
  for (const script of parsed.scripts) {
    for (const marker of SCRIPT_MARKERS) {
      const match = marker.pattern.exec(script.text);
      if (match) report(marker.code, positionIn(script.text, match.index, script.textLoc), marker.message(match[0]));
    }
  }
  for (const use of parsed.dataAttributes) {
    const marker = ATTRIBUTE_MARKERS[use.name];
    if (marker) report(marker.code, use.loc, marker.message);
  }
};
