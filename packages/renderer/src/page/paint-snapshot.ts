import type { Protocol } from "puppeteer-core";

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

const rare = (data: { index: number[]; value?: number[] } | undefined) => new Map((data?.index ?? []).map((node, i) => [node, data?.value?.[i] ?? 1]));

/**
 * A DOM snapshot (DOMSnapshot.captureSnapshot) as text that depends only on what it paints: not on
 * the order its strings were met, on what paints nothing (a subtree under opacity 0, but for its
 * SVG elements), or on the page's origin (written `@`). `off` names what the snapshot cannot show
 * the picture of.
 */
export function canonicalSnapshot(snapshot: Protocol.DOMSnapshot.CaptureSnapshotResponse, opacity: number): { text: string } | { off: string } {
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
    // SVG (and MathML) elements keep their names' case, HTML's are upper case. They are never left
    // out: what paints elsewhere may use them by reference (a gradient, a clip path, a filter, <use>).
    const referable = (node: number) => nodes.nodeType![node] === 1 && string(nodes.nodeName![node]) !== string(nodes.nodeName![node])!.toUpperCase();
    const transparent: boolean[] = [];
    const isTransparent = (node: number): boolean =>
      (transparent[node] ??=
        hiddenDocuments.has(d) || (!referable(node) && (transparentNodes.has(node) || (parents[node]! >= 0 && isTransparent(parents[node]!)))));
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
      const unseen =
        UNSEEN_ELEMENTS.get(name) ??
        unseenMedia(name, attributes, nodes, node, string) ??
        (name.endsWith("FRAME") && !contentDocuments.has(node) ? "a frame of another origin" : undefined);
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
        stacking.has(l),
      ]);
    }
    const runs = textBoxes.layoutIndex.flatMap((l, t) =>
      keptLayout.has(l) ? [[keptLayout.get(l), textBoxes.bounds[t], textBoxes.start[t], textBoxes.length[t]]] : [],
    );
    parts.push([
      hiddenDocuments.has(d),
      string(document.documentURL),
      string(document.baseURL),
      document.scrollOffsetX,
      document.scrollOffsetY,
      document.contentWidth,
      document.contentHeight,
      rows,
      boxes,
      runs,
    ]);
  }
  return { text: JSON.stringify(parts) };
}

/** A video or audio element whose picture the DOM does not hold: one playing its own source (not the renderer's extracted frames, which it shows as its poster), or showing its controls. */
function unseenMedia(
  name: string,
  attributes: (string | null)[],
  nodes: Protocol.DOMSnapshot.NodeTreeSnapshot,
  node: number,
  string: (index: number | undefined) => string | null,
): string | undefined {
  if (name !== "VIDEO" && name !== "AUDIO") return undefined;
  const names = attributes.filter((_, i) => i % 2 === 0);
  if (names.includes("controls")) return `${name === "VIDEO" ? "a <video>" : "an <audio>"} with controls`;
  if (name === "AUDIO") return undefined;
  const hasSource = names.includes("src") || (nodes.parentIndex ?? []).some((parent, child) => parent === node && string(nodes.nodeName![child]) === "SOURCE");
  return hasSource ? "a <video> playing its own source" : undefined;
}
