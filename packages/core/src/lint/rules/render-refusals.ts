import { quote } from "../../text/quote.js";
import type { LintRule } from "./rule.js";

/*
 * What render refuses, found statically where the file alone can tell; render refuses with the
 * same code and message.
 */

export function noDurationMessage(id: string | undefined): string {
  return `composition ${quote(id ?? "")} has no known duration: set data-duration on the composition element or on its clips, or register a GSAP timeline in window.__timelines`;
}

export function oddSizeMessage(id: string | undefined, width: number, height: number): string {
  return `composition ${quote(id ?? "")} is ${width}x${height}: mp4 and webm need an even width and height, so change data-width / data-height or render with --format mov or png-sequence`;
}

/**
 * No data-duration, no timed element that ends, and nothing that could give a length at render
 * time: no media to probe, no instance, no script that could register a timeline.
 */
export const checkDuration: LintRule = ({ parsed, timing, report, embeddedOnly }) => {
  const root = parsed.root;
  // An invalid data-duration is its own finding (what is allowed); "no duration" would hide it.
  if (root === undefined || embeddedOnly || timing.duration !== undefined || root.durationWritten) return;
  const mayLearnLength = parsed.scripts.length > 0 || parsed.elements.some((element) => element.kind === "video" || element.kind === "audio" || element.kind === "host");
  if (!mayLearnLength) report("no-duration", root.loc, noDurationMessage(root.id));
};

/** A warning, since only mp4 and webm refuse an odd size. */
export const checkEvenSize: LintRule = ({ parsed, report }) => {
  const root = parsed.root;
  if (root?.width === undefined || root.height === undefined) return;
  if (root.width % 2 !== 0 || root.height % 2 !== 0) report("odd-size", root.loc, oddSizeMessage(root.id, root.width, root.height));
};
