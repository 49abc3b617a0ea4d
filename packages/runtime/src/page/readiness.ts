import { compositionDuration } from "@compose/core";
import type { CompositionInfo } from "../api.js";
import type { AwaitedWork } from "./awaited-work.js";
import { findCompositionRoot, numberAttribute } from "./composition-root.js";
import { frameAssetsReady } from "./frame-assets.js";
import type { HistoryWatch } from "./history-watch.js";
import { idleAnimation } from "./idle-animation.js";
import { unavailableGraphics } from "./graphics-apis.js";
import { compositionBox, sizeCompositionRoot } from "./frame-styles.js";
import { letGsapTickerFollowTheClock } from "./gsap-timelines.js";
import { mountSubCompositions } from "./sub-compositions.js";
import { instantiateTemplateComposition } from "./template-composition.js";
import { readTimedElements } from "./timed-elements.js";
import { longestRegisteredTimeline } from "./timeline-lengths.js";
import type { VirtualTimers } from "./timers.js";

/**
 * Waits until the page is ready to be seeked, then describes the composition. Timers with no
 * delay run at composition time 0 like any other due timer; timers with a delay wait for a seek,
 * because the clock does not move by itself, so nothing here waits on them.
 */
export async function compositionReady(timers: VirtualTimers, history: HistoryWatch, work: AwaitedWork): Promise<CompositionInfo> {
  await loaded();
  await instantiateTemplateComposition();
  sizeCompositionRoot();
  await timers.runDue();
  // Hosts may be created by the page's scripts, so instances mount from the live DOM.
  await mountSubCompositions();
  await work.settled();
  await frameAssetsReady();
  // Font and image events may have scheduled more zero-delay work.
  await timers.runDue();
  letGsapTickerFollowTheClock();
  history.check();
  return describeComposition(history);
}

function loaded(): Promise<void> {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("load", () => resolve(), { once: true }));
}

export function describeComposition(history: HistoryWatch): CompositionInfo {
  const root = findCompositionRoot();
  if (!root) throw new Error("the page has no composition element: give one element data-composition-id, data-width and data-height");
  const name = root.getAttribute("data-composition-id");
  const width = numberAttribute(root, "data-width");
  const height = numberAttribute(root, "data-height");
  if (width === undefined || height === undefined || width <= 0 || height <= 0) {
    throw new Error(`composition "${name}" needs data-width and data-height as positive numbers of pixels`);
  }
  const { elements, errors } = readTimedElements(root);
  const declared = numberAttribute(root, "data-duration");
  // Core's parser ignores a declared duration that is not above 0; so does the runtime.
  const { duration, source } = compositionDuration(
    declared !== undefined && declared > 0 ? declared : undefined,
    elements.map((element) => element.timing),
    longestRegisteredTimeline(),
  );
  return {
    width,
    height,
    duration,
    durationSource: source,
    timingErrors: errors,
    paintedBackgrounds: paintedBackgrounds(root),
    unavailableGraphics: unavailableGraphics(),
    box: compositionBox(root),
    idleAnimation: idleAnimation(),
    needsHistory: history.needed,
  };
}

/** Which of html, body and the composition element paint a background, hiding transparency. */
function paintedBackgrounds(root: Element): string[] {
  const candidates: Array<[string, Element | null]> = [
    ["html", document.documentElement],
    ["body", document.body],
    ["the composition element", root],
  ];
  const painted = new Set<string>();
  for (const [name, element] of candidates) {
    if (!element) continue;
    const style = getComputedStyle(element);
    const colour = style.backgroundColor;
    const transparent = colour === "transparent" || /rgba\(.*,\s*0\)$/.test(colour);
    if (!transparent || style.backgroundImage !== "none") painted.add(element === root ? "the composition element" : name);
  }
  return [...painted];
}
