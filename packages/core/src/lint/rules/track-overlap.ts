import { quote } from "../../text/quote.js";
import type { LintRule } from "./rule.js";

interface Span {
  index: number;
  start: number;
  end: number;
}

/** Clips on one track must not overlap. Sorting by start keeps this O(n log n) on huge files. */
export const checkTrackOverlap: LintRule = ({ parsed, timing, report }) => {
  const tracks = new Map<number, Span[]>();
  parsed.elements.forEach((element, index) => {
    const resolved = timing.timings[index];
    // Without a known end (no duration) lint cannot tell where the element stops.
    if (element.track === undefined || resolved?.end === undefined) return;
    const spans = tracks.get(element.track) ?? [];
    spans.push({ index, start: resolved.start, end: resolved.end });
    tracks.set(element.track, spans);
  });
  for (const [track, spans] of tracks) {
    spans.sort((a, b) => a.start - b.start || a.index - b.index);
    let latest: Span | undefined;
    for (const span of spans) {
      if (latest !== undefined && span.start < latest.end) {
        const element = parsed.elements[span.index]!;
        report(
          "track-overlap",
          element.loc,
          `${describe(element.id, span)} overlaps ${describe(parsed.elements[latest.index]?.id, latest)} on track ${track}; clips on one track must not overlap`,
        );
      }
      if (latest === undefined || span.end > latest.end) latest = span;
    }
  }
};

function describe(id: string | undefined, span: Span): string {
  return `${id === undefined ? "an element" : quote(id)} (${seconds(span.start)}-${seconds(span.end)} s)`;
}

function seconds(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
