import type { DefaultTreeAdapterTypes } from "parse5";
import { createLineIndex } from "../text/line-index.js";
import { attribute, attributeLocation, attributeText, elementLocation } from "./attributes.js";
import type { SourceLocation } from "./types.js";
import { walkElements, type Element } from "./walk-elements.js";

/** A URL a file makes the page load, and what asks for it, as messages name it: `<img> src`, `url()`. */
export interface AssetReference {
  url: string;
  what: string;
  loc: SourceLocation;
}

/** The attributes whose value is one URL the page loads, by element. */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  img: ["src"],
  video: ["src", "poster"],
  audio: ["src"],
  source: ["src"],
  script: ["src"],
  iframe: ["src"],
};

const SRCSET_ELEMENTS = new Set(["img", "source"]);

/** The URLs of a srcset: each candidate's URL, before its width or density. */
function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(",")
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? "")
    .filter((url) => url !== "");
}

/**
 * The url() and @import references of a style sheet (or a style attribute, or a <style>), with
 * their offsets in `css`. Comments are skipped; the @font-face `src` is url() like any other.
 */
export function cssReferences(css: string): Array<{ url: string; what: string; offset: number }> {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => " ".repeat(comment.length));
  const found: Array<{ url: string; what: string; offset: number }> = [];
  for (const match of text.matchAll(/url\(\s*(["']?)([^"')]*?)\1\s*\)/gi)) {
    const before = text.slice(0, match.index).trimEnd();
    found.push({ url: match[2]!.trim(), what: /@import$/i.test(before) ? "@import" : "url()", offset: match.index! });
  }
  for (const match of text.matchAll(/@import\s+(["'])([^"']*)\1/gi)) found.push({ url: match[2]!.trim(), what: "@import", offset: match.index! });
  return found.sort((a, b) => a.offset - b.offset);
}

/** Where `offset` of `html` is, as a SourceLocation. */
function locator(html: string): (offset: number) => SourceLocation {
  const lineOf = createLineIndex(html);
  return (offset) => ({ ...lineOf(offset), offset });
}

function elementReferences(element: Element, html: string, at: (offset: number) => SourceLocation): AssetReference[] {
  const tag = element.tagName;
  const id = attribute(element, "id");
  // The id names the element where a message is read, as render's media messages name it.
  const named = id ? `<${tag} id="${id}">` : `<${tag}>`;
  const found: AssetReference[] = [];
  for (const name of URL_ATTRIBUTES[tag] ?? []) {
    const url = attribute(element, name);
    if (url !== undefined) found.push({ url, what: `${named} ${name}`, loc: attributeLocation(element, name) });
  }
  const srcset = SRCSET_ELEMENTS.has(tag) ? attribute(element, "srcset") : undefined;
  if (srcset !== undefined) for (const url of srcsetUrls(srcset)) found.push({ url, what: `${named} srcset`, loc: attributeLocation(element, "srcset") });
  if (tag === "link" && /(^|\s)stylesheet(\s|$)/i.test(attribute(element, "rel") ?? "")) {
    const href = attribute(element, "href");
    if (href !== undefined) found.push({ url: href, what: "<link> stylesheet", loc: attributeLocation(element, "href") });
  }
  const style = attributeText(element, "style", html);
  if (style !== undefined) {
    for (const reference of cssReferences(style.text)) {
      const loc = style.valueOffset === undefined ? style.loc : at(style.valueOffset + reference.offset);
      found.push({ url: reference.url, what: `style ${reference.what}`, loc });
    }
  }
  if (tag === "style") {
    const start = element.sourceCodeLocation?.startTag?.endOffset;
    const text = element.childNodes.map((node) => ("value" in node && node.nodeName === "#text" ? node.value : "")).join("");
    for (const reference of cssReferences(text)) {
      found.push({ url: reference.url, what: `<style> ${reference.what}`, loc: start === undefined ? elementLocation(element) : at(start + reference.offset) });
    }
  }
  return found;
}

/** Every URL the file's markup makes the page load, in document order (template content included). */
export function assetReferences(document: DefaultTreeAdapterTypes.Document, html: string): AssetReference[] {
  const at = locator(html);
  return [...walkElements(document, { intoTemplates: true })].flatMap((element) => elementReferences(element, html, at));
}

/** Whether a URL names a file of the project (relative or root-relative), not another origin or an inline `data:`. */
export function isProjectUrl(url: string): boolean {
  const trimmed = url.trim();
  return trimmed !== "" && !trimmed.startsWith("#") && !trimmed.startsWith("//") && !/^[a-z][a-z0-9+.-]*:/i.test(trimmed);
}
