import { plural } from "@compose/core";
import type { RenderEvent } from "@compose/core";

/** Warnings of one code shown in full; the rest are counted in one warning at the end. */
export const SHOWN_WARNINGS_PER_CODE = 10;

/** What a warning of each code is about, to count them: "and 14,990 more undeclared keys". */
const COUNTED_AS: Record<string, [string, string]> = {
  undeclared: ["undeclared key", "undeclared keys"],
  "type-mismatch": ["value of the wrong type", "values of the wrong type"],
  "enum-out-of-range": ["value outside its options", "values outside their options"],
  "missing-asset": ["missing asset", "missing assets"],
};

/** The warning that stands for the `count` warnings of `code` past the first ones. */
export function moreWarnings(code: string, count: number): RenderEvent {
  const [one, many] = COUNTED_AS[code] ?? [`${code} warning`, `${code} warnings`];
  return { type: "warning", code, message: `and ${plural(count, `more ${one}`, `more ${many}`)}`, more: count };
}

/**
 * Passes events on, but of each warning code only the first SHOWN_WARNINGS_PER_CODE: the others
 * are counted, and one warning per code says how many there were, just before the last event
 * (`finished` or `failed`). A render with 15,000 undeclared keys prints eleven lines, not 15,000.
 */
export function tallyWarnings(emit: (event: RenderEvent) => void): (event: RenderEvent) => void {
  const seen = new Map<string, number>();
  return (event) => {
    if (event.type === "warning") {
      const count = (seen.get(event.code) ?? 0) + 1;
      seen.set(event.code, count);
      if (count <= SHOWN_WARNINGS_PER_CODE) emit(event);
      return;
    }
    if (event.type === "finished" || event.type === "failed") {
      for (const [code, count] of seen) if (count > SHOWN_WARNINGS_PER_CODE) emit(moreWarnings(code, count - SHOWN_WARNINGS_PER_CODE));
      seen.clear();
    }
    emit(event);
  };
}
