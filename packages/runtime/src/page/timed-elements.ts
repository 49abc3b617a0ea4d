import { resolveTiming, type ResolvedTiming, type TimingError } from "@compose/core";
import { numberAttribute } from "./composition-root.js";
import { HOST_SELECTOR, instanceDuration } from "./sub-compositions.js";

export interface TimedElement {
  element: Element;
  /** Undefined when the start cannot be resolved; the reason is among the errors. */
  timing: ResolvedTiming | undefined;
}

/**
 * The timed elements of the composition as core's parser sees them (elements with data-start,
 * and sub-composition hosts, which start at 0 without one), but read from the live DOM so that
 * values set by scripts count, with their starts resolved to seconds.
 */
export function readTimedElements(root: Element): { elements: TimedElement[]; errors: TimingError[] } {
  const elements = Array.from(root.querySelectorAll(`[data-start], ${HOST_SELECTOR}`));
  const { timings, errors } = resolveTiming(
    elements.map((element) => ({
      id: timingId(element),
      start: element.getAttribute("data-start") ?? undefined,
      // A host without data-duration lasts as long as its composition.
      duration: numberAttribute(element, "data-duration") ?? instanceDuration(element),
    })),
  );
  return { elements: elements.map((element, index) => ({ element, timing: timings[index] })), errors };
}

/** A sub-composition instance is named by its data-composition-id, any other element by its id. */
function timingId(element: Element): string | undefined {
  const instanceId = element.matches(HOST_SELECTOR) ? element.getAttribute("data-composition-id") : null;
  return instanceId ?? (element.getAttribute("id") || undefined);
}
