interface MeasurableTimeline {
  duration(): number;
  totalDuration?(): number;
}

function isMeasurable(value: unknown): value is MeasurableTimeline {
  return typeof value === "object" && value !== null && typeof (value as Partial<MeasurableTimeline>).duration === "function";
}

/**
 * Seconds of the longest timeline registered in window.__timelines, repeats included; an endless
 * repeat counts once. The last resort of the duration rule, when nothing else gives a length.
 */
export function longestRegisteredTimeline(): number | undefined {
  const registry = (window as Window & { __timelines?: unknown }).__timelines;
  if (typeof registry !== "object" || registry === null) return undefined;
  let longest: number | undefined;
  for (const timeline of Object.values(registry)) {
    if (!isMeasurable(timeline)) continue;
    const total = timeline.totalDuration?.();
    // GSAP reports an endless repeat as a huge total.
    const seconds = total !== undefined && Number.isFinite(total) && total < 1e8 ? total : timeline.duration();
    if (Number.isFinite(seconds) && (longest === undefined || seconds > longest)) longest = seconds;
  }
  return longest;
}
