import type { TimedElement } from "./timed-elements.js";

const HIDDEN_ATTRIBUTE = "data-compose-hidden";

// Visibility, not display, so hiding a clip never changes layout; !important on the subtree so
// that inline styles an author animates cannot show a clip outside its window.
const hiddenClipSheet = new CSSStyleSheet();
hiddenClipSheet.replaceSync(`[${HIDDEN_ATTRIBUTE}], [${HIDDEN_ATTRIBUTE}] * { visibility: hidden !important; }`);

/** Starts and ends come from sums like `intro + 0.5`; a frame time 1 µs short of one still counts. */
const TOLERANCE_S = 1e-6;

/**
 * Shows each clip during [start, start + duration) (with no duration, from start on) and hides it,
 * subtree included, outside; a <video> too, since it shows the renderer's frames. <audio> has
 * nothing to show. A clip whose start cannot be resolved is never shown: render refuses such a
 * composition, and a preview must not show it over everything.
 */
export function applyClipVisibility(clips: readonly TimedElement[], t: number): void {
  if (!document.adoptedStyleSheets.includes(hiddenClipSheet)) {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, hiddenClipSheet];
  }
  const hidden = new Set<Element>();
  for (const { element, timing } of clips) {
    if (element instanceof HTMLAudioElement) continue;
    if (timing === undefined) {
      hidden.add(element);
      continue;
    }
    const started = t >= timing.start - TOLERANCE_S;
    const ended = timing.end !== undefined && t >= timing.end - TOLERANCE_S;
    if (!started || ended) hidden.add(element);
  }
  // Clips that lost their data-start since the last seek must not stay hidden.
  for (const element of document.querySelectorAll(`[${HIDDEN_ATTRIBUTE}]`)) {
    if (!hidden.has(element)) element.removeAttribute(HIDDEN_ATTRIBUTE);
  }
  // Only real changes touch the DOM: an unchanged frame must record no mutation.
  for (const element of hidden) if (!element.hasAttribute(HIDDEN_ATTRIBUTE)) element.setAttribute(HIDDEN_ATTRIBUTE, "");
}
