/** Keywords of font-family that name a kind of font, or a CSS-wide value, never a family to find. */
const GENERIC_FONT_FAMILY =
  /^(serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-(serif|sans-serif|monospace|rounded)|math|emoji|fangsong|inherit|initial|unset|revert|revert-layer|-webkit-\w+)$/i;

/** Whether a font-family entry is a generic keyword (which always resolves) rather than a family's name. */
export function isGenericFontFamily(family: string): boolean {
  return GENERIC_FONT_FAMILY.test(family);
}

/** A family's name as font packages write it: lowercase, words joined by hyphens ("Space Mono": space-mono). */
export function familySlug(family: string): string {
  return family
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
