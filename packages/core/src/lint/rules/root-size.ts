import { quote } from "../../text/quote.js";
import type { LintRule } from "./rule.js";

export interface RootSize {
  width: number | undefined;
  height: number | undefined;
}

/** One message for lint (inline style) and render (the laid-out box), so both read the same. */
export function rootSizeMismatchMessage(id: string | undefined, declared: RootSize, css: RootSize): string {
  const size = ({ width, height }: RootSize) => `${width ?? "auto"}x${height ?? "auto"}`;
  return `composition ${quote(id ?? "")} is ${size(css)} px by its CSS but ${size(declared)} by data-width / data-height, and frames are ${size(declared)}: remove the CSS size (data-width / data-height size the composition element) or make them agree`;
}

/** A width or height in px from an inline style; undefined for any other unit, which lint cannot compare. */
function inlinePixels(style: string, property: "width" | "height"): number | undefined {
  const match = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([\\d.]+)px\\s*(?:!important\\s*)?(?:;|$)`, "i").exec(style);
  return match ? Number(match[1]) : undefined;
}

/** An inline CSS size on the composition element that disagrees with data-width / data-height. */
export const checkRootSize: LintRule = ({ parsed, report }) => {
  const root = parsed.root;
  if (root?.style === undefined) return;
  const css = { width: inlinePixels(root.style, "width"), height: inlinePixels(root.style, "height") };
  const widthDiffers = css.width !== undefined && root.width !== undefined && css.width !== root.width;
  const heightDiffers = css.height !== undefined && root.height !== undefined && css.height !== root.height;
  if (!widthDiffers && !heightDiffers) return;
  report("root-size-mismatch", root.loc, rootSizeMismatchMessage(root.id, root, css));
};
