import type { CDPSession } from "puppeteer-core";
import { isGenericFontFamily } from "@compose/core";
import { defaultFamilyFor } from "../web/fonts/default-fonts.js";

/** A family the page asked for that no font of its name drew. */
export interface FontFallback {
  family: string;
  /** The document whose text asked for it (a sub-composition's own file, for text in an instance). */
  documentUrl: string;
  /** The fonts that drew the text instead, most glyphs first. */
  drawnWith: string[];
}

/**
 * One element for each font-family value used by text, in every document of the page (the
 * instances' frames too), with the web font families each document has loaded.
 */
const TEXT_FONTS = `(() => {
  const uses = [];
  const elements = [];
  const visit = (doc) => {
    const loaded = [...doc.fonts].filter((face) => face.status === "loaded").map((face) => face.family.replace(/^["']|["']$/g, "").toLowerCase());
    const seen = new Set();
    const walker = doc.createTreeWalker(doc.body || doc.documentElement, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.data.trim() || element.closest("script, style, template, noscript, title")) continue;
      if (element.getClientRects().length === 0) continue;
      const family = doc.defaultView.getComputedStyle(element).fontFamily;
      if (seen.has(family)) continue;
      seen.add(family);
      uses.push({ family, documentUrl: doc.URL, loaded });
      elements.push(element);
    }
    for (const frame of doc.querySelectorAll("iframe")) {
      try {
        if (frame.contentDocument) visit(frame.contentDocument);
      } catch {}
    }
  };
  visit(document);
  return { uses, elements };
})()`;

/** The families of a computed font-family value, unquoted. */
export function familiesOf(value: string): string[] {
  return [...value.matchAll(/\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,]+)\s*(?:,|$)/g)]
    .map(([, family]) =>
      family!
        .trim()
        .replace(/^(["'])(.*)\1$/, "$2")
        .replace(/\\(.)/g, "$1"),
    )
    .filter(Boolean);
}

/** Whether a font of `family`'s name drew the text: a loaded web font, a system font of that name, or the default set's font for it. */
function resolved(family: string, loaded: string[], drawn: string[]): boolean {
  const wanted = family.toLowerCase();
  if (isGenericFontFamily(family) || loaded.includes(wanted)) return true;
  const names = drawn.map((name) => name.toLowerCase());
  const ours = defaultFamilyFor(family)?.toLowerCase();
  return names.includes(wanted) || (ours !== undefined && names.includes(ours));
}

/**
 * Asks the browser which fonts drew the page's text (CSS.getPlatformFontsForNode, for one element
 * of each font-family value) and returns each family asked for that no font of its name drew:
 * every family before the first that resolved, in each value.
 */
export async function findFontFallbacks(cdp: CDPSession): Promise<FontFallback[]> {
  const { result } = await cdp.send("Runtime.evaluate", { expression: TEXT_FONTS });
  if (!result.objectId) return [];
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  try {
    // The root only: DOM.requestNode sends the path to each node it is asked for. The whole tree
    // (depth -1) of deeply nested sub-compositions is deeper than the protocol can encode.
    await cdp.send("DOM.getDocument", { depth: 0 });
    const { result: usesValue } = await cdp.send("Runtime.callFunctionOn", {
      objectId: result.objectId,
      functionDeclaration: "function () { return this.uses; }",
      returnByValue: true,
    });
    const uses = usesValue.value as Array<{ family: string; documentUrl: string; loaded: string[] }>;
    const { result: elementsArray } = await cdp.send("Runtime.callFunctionOn", {
      objectId: result.objectId,
      functionDeclaration: "function () { return this.elements; }",
    });
    const { result: properties } = await cdp.send("Runtime.getProperties", { objectId: elementsArray.objectId!, ownProperties: true });
    const fallbacks: FontFallback[] = [];
    for (const property of properties) {
      const index = Number(property.name);
      const use = uses[index];
      if (!use || !Number.isInteger(index) || !property.value?.objectId) continue;
      const { nodeId } = await cdp.send("DOM.requestNode", { objectId: property.value.objectId });
      const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
      if (fonts.length === 0) continue;
      const drawn = [...fonts].sort((a, b) => b.glyphCount - a.glyphCount).map((font) => font.familyName);
      for (const family of familiesOf(use.family)) {
        if (resolved(family, use.loaded, drawn)) break;
        fallbacks.push({ family, documentUrl: use.documentUrl, drawnWith: drawn });
      }
    }
    return fallbacks;
  } finally {
    await cdp.send("Runtime.releaseObject", { objectId: result.objectId }).catch(() => undefined);
    await cdp.send("CSS.disable").catch(() => undefined);
    await cdp.send("DOM.disable").catch(() => undefined);
  }
}
