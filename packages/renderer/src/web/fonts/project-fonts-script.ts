import type { FontFaceRule } from "../local/fontsource.js";

/**
 * A script for every document of the page (sub-composition frames too) that adds the faces of the
 * project's font packages to document.fonts, so `font-family` can name them without a stylesheet;
 * the browser loads a face only when text uses it. A family the document gives @font-face rules
 * of its own is left to those, once they are parsed.
 */
export function projectFontsScript(rules: FontFaceRule[]): string {
  const faces = rules.map((rule) => [
    rule.family,
    rule.src,
    { style: rule.style, weight: rule.weight, display: "swap", ...(rule.unicodeRange ? { unicodeRange: rule.unicodeRange } : {}) },
  ]);
  return `(() => {
  const added = ${JSON.stringify(faces)}.map(([family, src, descriptors]) => {
    const face = new FontFace(family, src, descriptors);
    document.fonts.add(face);
    return face;
  });
  const name = (family) => family.replace(/^["']|["']$/g, "").toLowerCase();
  const yieldToOwnRules = () => {
    const own = new Set();
    for (const face of document.fonts) if (!added.includes(face)) own.add(name(face.family));
    for (const face of added) if (own.has(name(face.family))) document.fonts.delete(face);
  };
  document.addEventListener("DOMContentLoaded", yieldToOwnRules);
  addEventListener("load", yieldToOwnRules);
})();`;
}
