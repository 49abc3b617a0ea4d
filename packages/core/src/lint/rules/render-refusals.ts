import { FORMAT_TABLE } from "../../formats/format-table.js";
import { OUTPUT_FORMATS } from "../../options/option-declarations.js";
import { listed } from "../../text/listed.js";
import { quote } from "../../text/quote.js";
import type { LintRule } from "./rule.js";

/*
 * What render refuses, found statically where the file alone can tell; render refuses with the
 * same code and message.
 */

export function noDurationMessage(id: string | undefined): string {
  return `composition ${quote(id ?? "")} has no known duration: set data-duration on the composition element or on its clips, or register a GSAP timeline in window.__timelines`;
}

/**
 * A size the 4:2:0 formats cannot take: the composition's own, or (`scaled`) the size a render
 * draws it at, the scale option named as its user knows it.
 */
export function oddSizeMessage(id: string | undefined, width: number, height: number, scaled?: { option: string; factor: number }): string {
  const even = OUTPUT_FORMATS.filter((format) => FORMAT_TABLE[format].subsampled);
  const any = OUTPUT_FORMATS.filter((format) => !FORMAT_TABLE[format].subsampled);
  const size = scaled ? `renders at ${width}x${height} with ${scaled.option} ${scaled.factor}` : `is ${width}x${height}`;
  const change = scaled ? `change ${scaled.option}, data-width or data-height` : "change data-width / data-height";
  return `composition ${quote(id ?? "")} ${size}: ${listed(even, "and")} need an even width and height, so ${change} or render with --format ${listed(any, "or")}`;
}

/**
 * No data-duration, no timed element that ends, and nothing that could give a length at render
 * time: no media to probe, no instance, no script that could register a timeline.
 */
export const checkDuration: LintRule = ({ parsed, timing, report, embeddedOnly }) => {
  const root = parsed.root;
  // An invalid data-duration is its own finding (what is allowed); "no duration" would hide it.
  if (root === undefined || embeddedOnly || timing.duration !== undefined || root.durationWritten) return;
  const mayLearnLength =
    parsed.scripts.length > 0 || parsed.elements.some((element) => element.kind === "video" || element.kind === "audio" || element.kind === "host");
  if (!mayLearnLength) report("no-duration", root.loc, noDurationMessage(root.id));
};

/** A warning, since only the 4:2:0 formats (mp4, webm) refuse an odd size. */
export const checkEvenSize: LintRule = ({ parsed, report }) => {
  const root = parsed.root;
  if (root?.width === undefined || root.height === undefined) return;
  if (root.width % 2 !== 0 || root.height % 2 !== 0) report("odd-size", root.loc, oddSizeMessage(root.id, root.width, root.height));
};
