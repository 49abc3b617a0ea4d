import { createHash } from "node:crypto";
import type { CDPSession } from "puppeteer-core";
import { canonicalSnapshot } from "./paint-snapshot.js";

/**
 * What a page paints now, as a digest two pages can compare without capturing: equal digests
 * mean the same frame. `off` names what the digest cannot see (a canvas, a video playing its own
 * source, ...), and then the frame must be captured.
 */
export type PaintFingerprint = { digest: string } | { off: string };

/**
 * What the page knows beyond the snapshot, through every frame its scripts can reach: the text of
 * every style sheet (rules a script inserted are not in the DOM), the font faces with the source
 * each script-made one was given (font-sources.ts), and what makes a frame differ without a change
 * to the DOM (a focused element's caret or ring, a selection).
 */
const PAGE_FACTS = `(() => {
  const off = [];
  const sheets = [];
  const fonts = [];
  let documents = 0;
  const rulesOf = (sheet) => {
    try {
      return Array.from(sheet.cssRules, (rule) => rule.cssText).join("\\n");
    } catch {
      return "href " + sheet.href;
    }
  };
  const visit = (win) => {
    documents++;
    const doc = win.document;
    for (const sheet of doc.styleSheets) sheets.push([sheet.disabled, sheet.media.mediaText, rulesOf(sheet)]);
    for (const sheet of doc.adoptedStyleSheets) sheets.push(["adopted", sheet.media.mediaText, rulesOf(sheet)]);
    const made = win.__composeFontSources;
    for (const face of doc.fonts) {
      const source = made && made.has(face) ? made.get(face) : "css";
      if (source === null) off.push("a FontFace made from binary data");
      fonts.push([face.family, face.style, face.weight, face.stretch, face.unicodeRange, face.variant, face.featureSettings, face.status, source]);
    }
    for (const frame of doc.querySelectorAll("iframe, frame")) {
      try {
        if (frame.contentDocument) visit(frame.contentWindow);
      } catch {}
    }
  };
  visit(window);
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) off.push("a focused element");
  if (!getSelection().isCollapsed) off.push("a selection");
  return { off, sheets, fonts, documents };
})()`;

/** Every longhand of computed style, as the browser lists them: the snapshot is asked for all of them. */
const STYLE_PROPERTIES = "Array.from(getComputedStyle(document.documentElement)).filter((name) => !name.startsWith('--'))";

interface PageFacts {
  off: string[];
  sheets: unknown[];
  fonts: unknown[];
  documents: number;
}

/**
 * Fingerprints of one page's frames. Everything that decides a pixel is in the digest: every
 * node with its attributes, text and form state; every layout box with its bounds, text runs,
 * paint order and every computed style; the style sheets' text and the font faces with their
 * sources. A subtree under an element of opacity 0 paints nothing and is left out, so text a row
 * fills in but does not show yet does not make its frame differ; its SVG elements stay, since
 * what paints may refer to them. The page's origin (each render
 * serves the project on its own port) is written as `@`.
 */
export function createPaintFingerprinter(send: CDPSession["send"]): () => Promise<PaintFingerprint> {
  let properties: string[] | undefined;
  return async () => {
    properties ??= (await send("Runtime.evaluate", { expression: STYLE_PROPERTIES, returnByValue: true })).result.value as string[];
    const [facts, snapshot] = await Promise.all([
      send("Runtime.evaluate", { expression: PAGE_FACTS, returnByValue: true }).then(({ result }) => result.value as PageFacts),
      // Blended background colours and text colour opacities follow from the styles: not asked for.
      send("DOMSnapshot.captureSnapshot", { computedStyles: properties, includePaintOrder: true, includeDOMRects: true }),
    ]);
    if (facts.off[0]) return { off: facts.off[0] };
    if (facts.documents !== snapshot.documents.length) return { off: "a frame the page's scripts cannot reach" };
    const canonical = canonicalSnapshot(snapshot, properties.indexOf("opacity"));
    if ("off" in canonical) return canonical;
    const hash = createHash("sha256");
    hash.update(JSON.stringify([properties.length, facts.sheets, facts.fonts]));
    hash.update(canonical.text);
    return { digest: hash.digest("base64url") };
  };
}
