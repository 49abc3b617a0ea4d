import { createHash } from "node:crypto";
import type { CDPSession, Protocol } from "puppeteer-core";

/**
 * What a page paints now, as a digest two pages can compare without capturing: equal digests
 * mean the same frame. `off` names what the digest cannot see (a canvas, a video playing its own
 * source, ...), and then the frame must be captured.
 */
export type PaintFingerprint = { digest: string } | { off: string };

/** Elements whose picture is not in the DOM, its styles or its layout. */
const UNSEEN_ELEMENTS = new Map([
  ["CANVAS", "a <canvas>"],
  ["EMBED", "an <embed>"],
  ["OBJECT", "an <object>"],
  ["MARQUEE", "a <marquee>"],
  ["animate", "an SVG <animate>"],
  ["animateTransform", "an SVG <animateTransform>"],
  ["animateMotion", "an SVG <animateMotion>"],
  ["set", "an SVG <set>"],
  ["discard", "an SVG <discard>"],
]);

/** Style values drawn by a script: a CSS Paint worklet, a -webkit-canvas() image. */
const SCRIPTED_IMAGE = /\b(?:paint|-webkit-canvas)\(/;

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
 * fills in but does not show yet does not make its frame differ. The page's origin (each render
 * serves the project on its own port) is written as `@`.
 */
export function createPaintFingerprinter(send: CDPSession["send"]): () => Promise<PaintFingerprint> {
  let properties: string[] | undefined;
  return async () => {
    properties ??= (await send("Runtime.evaluate", { expression: STYLE_PROPERTIES, returnByValue: true })).result.value as string[];
    const [facts, snapshot] = await Promise.all([
      send("Runtime.evaluate", { expression: PAGE_FACTS, returnByValue: true }).then(({ result }) => result.value as PageFacts),
      send("DOMSnapshot.captureSnapshot", { computedStyles: properties, includePaintOrder: true, includeDOMRects: true, includeBlendedBackgroundColors: true, includeTextColorOpacities: true }),
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

const rare = (data: { index: number[]; value?: number[] } | undefined) => new Map((data?.index ?? []).map((node, i) => [node, data?.value?.[i] ?? 1]));

/** The snapshot as text that does not depend on the order strings were met or on what paints nothing. */
function canonicalSnapshot(snapshot: Protocol.DOMSnapshot.CaptureSnapshotResponse, opacity: number): { text: string } | { off: string } {
  const origin = new URL(snapshot.strings[snapshot.documents[0]!.documentURL]!).origin;
  const strings = snapshot.strings.map((text) => text.split(origin).join("@"));
  const string = (index: number | undefined) => (index === undefined || index < 0 ? null : strings[index]!);
  // A document inside a frame element that paints nothing paints nothing either.
  const hiddenDocuments = new Set<number>();
  const parts: unknown[] = [];
  for (const [d, document] of snapshot.documents.entries()) {
    const { nodes, layout, textBoxes } = document;
    const parents = nodes.parentIndex ?? [];
    const contentDocuments = rare(nodes.contentDocumentIndex);
    const transparentNodes = new Set<number>();
    for (const [l, node] of layout.nodeIndex.entries()) if (string(layout.styles[l]![opacity]) === "0") transparentNodes.add(node);
    const transparent: boolean[] = [];
    const isTransparent = (node: number): boolean =>
      (transparent[node] ??= hiddenDocuments.has(d) || transparentNodes.has(node) || (parents[node]! >= 0 && isTransparent(parents[node]!)));
    const renumbered = new Map<number, number>();
    const rows: unknown[] = [];
    const rareStrings = [nodes.shadowRootType, nodes.pseudoType, nodes.pseudoIdentifier, nodes.textValue, nodes.inputValue, nodes.currentSourceURL].map(rare);
    const checked = rare(nodes.inputChecked);
    const selected = rare(nodes.optionSelected);
    for (let node = 0; node < (nodes.nodeName?.length ?? 0); node++) {
      if (isTransparent(node)) {
        const inner = contentDocuments.get(node);
        if (inner !== undefined) hiddenDocuments.add(inner);
        continue;
      }
      const name = string(nodes.nodeName![node])!;
      const attributes = (nodes.attributes?.[node] ?? []).map(string);
      const unseen = UNSEEN_ELEMENTS.get(name) ?? unseenMedia(name, attributes, nodes, node, string) ?? (name.endsWith("FRAME") && !contentDocuments.has(node) ? "a frame of another origin" : undefined);
      if (unseen) return { off: unseen };
      renumbered.set(node, renumbered.size);
      rows.push([
        renumbered.get(parents[node]!) ?? -1,
        nodes.nodeType![node],
        name,
        string(nodes.nodeValue![node]),
        attributes,
        rareStrings.map((data) => string(data.get(node))),
        checked.has(node),
        selected.has(node),
        contentDocuments.get(node) ?? null,
      ]);
    }
    const kept = layout.nodeIndex.flatMap((node, l) => (renumbered.has(node) ? [l] : []));
    // Paint order counts what paints nothing too: only the order among what is kept matters.
    const orders = layout.paintOrders ? kept.map((l) => layout.paintOrders![l]!) : [];
    const rank = new Map([...orders].sort((a, b) => a - b).map((order, i) => [order, i]));
    const keptLayout = new Map(kept.map((l, i) => [l, i]));
    const stacking = new Set(layout.stackingContexts.index);
    const boxes: unknown[] = [];
    for (const l of kept) {
      const styles = layout.styles[l]!.map(string);
      if (styles.some((value) => value !== null && SCRIPTED_IMAGE.test(value))) return { off: "a style drawn by a script (paint() or -webkit-canvas())" };
      boxes.push([
        renumbered.get(layout.nodeIndex[l]!),
        styles,
        layout.bounds[l],
        string(layout.text[l]),
        layout.paintOrders ? rank.get(layout.paintOrders[l]!) : null,
        layout.offsetRects?.[l] ?? null,
        layout.scrollRects?.[l] ?? null,
        layout.clientRects?.[l] ?? null,
        string(layout.blendedBackgroundColors?.[l]),
        layout.textColorOpacities?.[l] ?? null,
        stacking.has(l),
      ]);
    }
    const runs = textBoxes.layoutIndex.flatMap((l, t) => (keptLayout.has(l) ? [[keptLayout.get(l), textBoxes.bounds[t], textBoxes.start[t], textBoxes.length[t]]] : []));
    parts.push([hiddenDocuments.has(d), string(document.documentURL), string(document.baseURL), document.scrollOffsetX, document.scrollOffsetY, document.contentWidth, document.contentHeight, rows, boxes, runs]);
  }
  return { text: JSON.stringify(parts) };
}

/** A video or audio element whose picture the DOM does not hold: one playing its own source (not the renderer's extracted frames, which it shows as its poster), or showing its controls. */
function unseenMedia(name: string, attributes: (string | null)[], nodes: Protocol.DOMSnapshot.NodeTreeSnapshot, node: number, string: (index: number | undefined) => string | null): string | undefined {
  if (name !== "VIDEO" && name !== "AUDIO") return undefined;
  const names = attributes.filter((_, i) => i % 2 === 0);
  if (names.includes("controls")) return `${name === "VIDEO" ? "a <video>" : "an <audio>"} with controls`;
  if (name === "AUDIO") return undefined;
  const hasSource = names.includes("src") || (nodes.parentIndex ?? []).some((parent, child) => parent === node && string(nodes.nodeName![child]) === "SOURCE");
  return hasSource ? "a <video> playing its own source" : undefined;
}
