/** A url(...) in CSS text: the quote, then the URL as written. */
export const CSS_URL = /url\(\s*(["']?)([^"')]+)\1\s*\)/g;

export interface ReadableRule {
  rule: CSSRule;
  /** What the rule's url()s resolve against: its sheet's file, or the document for a <style>. */
  base: string;
  /** The sheet's own URL; undefined for a <style> element. */
  href: string | undefined;
}

/** The rules of this document's style sheets that can be read (another origin's cannot). */
export function readableRules(): ReadableRule[] {
  const found: ReadableRule[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue;
    }
    for (const rule of Array.from(rules)) found.push({ rule, base: sheet.href ?? document.baseURI, href: sheet.href ?? undefined });
  }
  return found;
}
