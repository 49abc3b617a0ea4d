import { findCompositionRoot, numberAttribute } from "./composition-root.js";

/**
 * Styles the runtime gives every frame, each at zero specificity (`:where`) so that any rule of
 * the author's wins: no html/body margin that would offset the composition, the composition
 * element sized from data-width / data-height, and what a sub-composition inherits from its host.
 */
const sheet = new CSSStyleSheet();
const parts = { reset: ":where(html, body) { margin: 0; }", root: "", inherited: "" };

function update(): void {
  sheet.replaceSync([parts.reset, parts.inherited, parts.root].filter(Boolean).join("\n"));
  if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [sheet, ...document.adoptedStyleSheets];
}

/** Installs the frame's base styles; call once, before the page's own markup exists. */
export function installFrameStyles(): void {
  update();
  // Scripts may measure the composition element while the page is still parsing; the observer
  // runs before each parser-inserted script, so its size is there by then.
  const observer = new MutationObserver(() => {
    if (sizeCompositionRoot()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
  window.addEventListener("load", () => observer.disconnect(), { once: true });
}

/**
 * Sizes the composition element from its data-width / data-height, unless CSS sizes it. Selects it
 * by the attributes it already has, so the page's DOM is not touched. True once the root is known.
 */
export function sizeCompositionRoot(): boolean {
  const root = findCompositionRoot();
  if (!root) return false;
  const width = numberAttribute(root, "data-width");
  const height = numberAttribute(root, "data-height");
  const id = root.getAttribute("data-composition-id") ?? "";
  const selector = `:where([data-composition-id="${CSS.escape(id)}"]:not([data-composition-src]))`;
  const declarations = [width !== undefined && width > 0 ? `width: ${width}px;` : "", height !== undefined && height > 0 ? `height: ${height}px;` : ""].join(
    " ",
  );
  const rule = `${selector} { ${declarations} }`;
  if (parts.root !== rule) {
    parts.root = rule;
    update();
  }
  return true;
}

/** What a sub-composition instance takes from its host element: inherited properties, web fonts. */
export interface InheritedStyle {
  /** Inherited CSS properties of the host, as computed there. */
  properties: Record<string, string>;
  /** The host document's @font-face rules, with their URLs made absolute. */
  fontFaces: string[];
}

/** Applies the host's inherited style to this frame, below any rule of its own. */
export function applyInheritedStyle(style: InheritedStyle): void {
  const declarations = Object.entries(style.properties)
    .map(([name, value]) => `${name}: ${value};`)
    .join(" ");
  parts.inherited = [...style.fontFaces, `:where(html) { ${declarations} }`].join("\n");
  update();
}

/** The composition element's box as laid out, for the warnings on a size that disagrees or a blank render. */
export function compositionBox(root: Element): { width: number; height: number; hidden: boolean } {
  // The layout size, not the transformed one: an animation that starts at scale 0 is not a wrong size.
  const { width, height } = root instanceof HTMLElement ? { width: root.offsetWidth, height: root.offsetHeight } : root.getBoundingClientRect();
  const style = getComputedStyle(root);
  const hidden = style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0;
  return { width: Math.round(width), height: Math.round(height), hidden };
}
