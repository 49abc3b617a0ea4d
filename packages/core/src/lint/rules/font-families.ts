import { familySlug, isGenericFontFamily } from "../../text/font-family.js";
import { fontFamilyUses } from "../../text/font-family-uses.js";
import { createLineIndex } from "../../text/line-index.js";
import type { LintRule } from "./rule.js";

/**
 * A family that `font-family` names and that neither the default set, the project (its font
 * packages, @font-face rules, Google Fonts stylesheets) nor this machine has: the render would
 * draw it with another font. Runs only when the caller knows the fonts (`knownFontFamily`).
 */
export const checkFontFamilies: LintRule = ({ html, knownFontFamily, report }) => {
  if (!knownFontFamily) return;
  const locate = createLineIndex(html);
  const told = new Set<string>();
  for (const { family, offset } of fontFamilyUses(html)) {
    if (isGenericFontFamily(family) || told.has(family.toLowerCase()) || knownFontFamily(family)) continue;
    told.add(family.toLowerCase());
    report(
      "font-family-unknown",
      locate(offset),
      `font family "${family}" is in neither the default set, the project (font packages, @font-face, Google Fonts stylesheets) nor this machine's fonts, so the render draws another font: add it with compose fonts add ${familySlug(family)}`,
    );
  }
};
