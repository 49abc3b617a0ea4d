import type { TimelineEntry } from "../api.js";
import { findCompositionRoot, numberAttribute } from "./composition-root.js";
import { mediaSource } from "./media.js";
import { eachInstance, HOST_SELECTOR } from "./sub-compositions.js";
import { readTimedElements } from "./timed-elements.js";

function kindOf(element: Element): TimelineEntry["kind"] {
  if (element.matches(HOST_SELECTOR)) return "composition";
  if (element instanceof HTMLVideoElement) return "video";
  if (element instanceof HTMLAudioElement) return "audio";
  return "clip";
}

function shifted(entries: TimelineEntry[], offset: number | undefined): TimelineEntry[] {
  return entries.map((entry) => ({
    ...entry,
    start: entry.start === undefined || offset === undefined ? undefined : offset + entry.start,
    children: entry.children && shifted(entry.children, offset),
  }));
}

/**
 * The timed elements as the seek resolves them (readTimedElements: live DOM, relative starts
 * resolved), each instance with its own elements moved to this composition's time.
 */
export function describeTimeline(): TimelineEntry[] {
  const root = findCompositionRoot();
  if (!root) return [];
  const instances = new Map(eachInstance((instance) => [instance.host, instance] as const));
  return readTimedElements(root).elements.map(({ element, timing }) => {
    const kind = kindOf(element);
    const instance = instances.get(element);
    const entry: TimelineEntry = {
      kind,
      label: (kind === "composition" ? element.getAttribute("data-composition-id") : null) ?? (element.id || undefined),
      track: numberAttribute(element, "data-track-index"),
      start: timing?.start,
      duration: timing?.duration,
    };
    if (element instanceof HTMLMediaElement) entry.src = element.getAttribute("data-compose-src") ?? mediaSource(element);
    if (kind === "composition") {
      entry.src = new URL(element.getAttribute("data-composition-src") ?? "", document.baseURI).href;
      entry.children = instance ? shifted(instance.api.describeTimeline(), timing?.start) : [];
    }
    return entry;
  });
}
