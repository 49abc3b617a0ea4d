/** `font-family: <list>` and the `font` shorthand's list (after the size), in CSS or a style attribute. */
const DECLARATION = /(?<![\w-])font(-family)?\s*:\s*((?:"[^"<>]*"|'[^'<>]*'|[^;}"'<>\\])+)/gi;

/** The family list of a declaration's value; undefined when a var() or keyword makes it unknowable here. */
function familyList(shorthand: boolean, value: string): string | undefined {
  if (/var\(|env\(/i.test(value)) return undefined;
  if (!shorthand) return value;
  // font: [style] [weight] size[/line-height] family, family...
  const size =
    /(?:^|\s)(?:[\d.]+(?:px|pt|em|rem|%|vh|vw|vmin|vmax|ch|ex|cm|mm|in|pc|q)|xx-small|x-small|small|medium|large|x-large|xx-large|larger|smaller)(?:\/\S+)?\s+/i.exec(
      value,
    );
  return size ? value.slice(size.index + size[0].length) : undefined;
}

/** A family a font declaration names, and where in the text. */
export interface FontFamilyUse {
  family: string;
  offset: number;
}

/**
 * Every family the `font-family` and `font` declarations of an HTML or CSS text name, generic
 * keywords included, in order: what a static reading knows of the fonts a page asks for (a script
 * that sets a font, or a var(), is not seen).
 */
export function fontFamilyUses(text: string): FontFamilyUse[] {
  const uses: FontFamilyUse[] = [];
  // An @font-face rule gives a family a font; it asks for none. Blanked, so offsets stay.
  const asked = text.replace(/@font-face\s*{[^}]*}/gi, (rule) => " ".repeat(rule.length));
  for (const match of asked.matchAll(DECLARATION)) {
    const list = familyList(match[1] === undefined, match[2]!);
    if (list === undefined) continue;
    for (const entry of list.split(",")) {
      const family = entry
        .trim()
        .replace(/^(["'])(.*)\1$/, "$2")
        .trim();
      if (family !== "") uses.push({ family, offset: match.index! + match[0].indexOf(family) });
    }
  }
  return uses;
}
