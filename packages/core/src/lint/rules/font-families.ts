import { familySlug, isGenericFontFamily } from "../../text/font-family.js";
import { createLineIndex } from "../../text/line-index.js";
import type { LintRule } from "./rule.js";

/** `font-family: <list>` and the `font` shorthand's list (after the size), in CSS or a style attribute. */
const DECLARATION = /(?<![\w-])font(-family)?\s*:\s*((?:"[^"<>]*"|'[^'<>]*'|[^;}"'<>\\])+)/gi;

/** The family list of a declaration's value; undefined when a var() or keyword makes it unknowable here. */
function familyList(shorthand: boolean, value: string): string | undefined {
  if (/var\(|env\(/i.test(value)) return undefined;
  if (!shorthand) return value;
  // font: [style] [weight] size[/line-height] family, family...
  const size = /(?:^|\s)(?:[\d.]+(?:px|pt|em|rem|%|vh|vw|vmin|vmax|ch|ex|cm|mm|in|pc|q)|xx-small|x-small|small|medium|large|x-large|xx-large|larger|smaller)(?:\/\S+)?\s+/i.exec(value);
  return size ? value.slice(size.index + size[0].length) : undefined;
}

function familiesIn(list: string): string[] {
  return list
    .split(",")
    .map((family) => family.trim().replace(/^(["'])(.*)\1$/, "$2").trim())
    .filter((family) => family !== "" && !isGenericFontFamily(family));
}

/**
 * A family that `font-family` names and that neither the default set, the project (its font
 * packages, @font-face rules, Google Fonts stylesheets) nor this machine has: the render would
 * draw it with another font. Runs only when the caller knows the fonts (`knownFontFamily`).
 */
export const checkFontFamilies: LintRule = ({ html, knownFontFamily, report }) => {
  if (!knownFontFamily) return;
  const locate = createLineIndex(html);
  const told = new Set<string>();
  for (const match of html.matchAll(DECLARATION)) {
    const list = familyList(match[1] === undefined, match[2]!);
    if (list === undefined) continue;
    for (const family of familiesIn(list)) {
      if (told.has(family.toLowerCase()) || knownFontFamily(family)) continue;
      told.add(family.toLowerCase());
      report(
        "font-family-unknown",
        locate(match.index! + match[0].indexOf(family)),
        `font family "${family}" is in neither the default set, the project (font packages, @font-face, Google Fonts stylesheets) nor this machine's fonts, so the render draws another font: add it with compose fonts add ${familySlug(family)}`,
      );
    }
  }
};
