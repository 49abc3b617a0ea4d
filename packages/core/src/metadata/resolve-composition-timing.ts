import type { ParsedComposition, SubCompositionHost } from "../html/types.js";
import { compositionDuration, resolveTiming, type DurationSource, type ResolvedTiming, type TimingError } from "../timing/resolve-timing.js";

export interface CompositionTiming {
  /** Parallel to `parsed.elements`. */
  timings: Array<ResolvedTiming | undefined>;
  errors: TimingError[];
  duration: number | undefined;
  /** Which part of the duration rule gave it; statically never "timelines". */
  durationSource: DurationSource | undefined;
}

/**
 * Resolves the timing of a parsed composition. A host without data-duration lasts as long as the
 * composition it embeds, which only the caller can know (it needs the other file).
 */
export function resolveCompositionTiming(
  parsed: ParsedComposition,
  embeddedDuration: (host: SubCompositionHost) => number | undefined = () => undefined,
): CompositionTiming {
  const hostByElement = new Map(parsed.hosts.map((host) => [host.element, host]));
  const { timings, errors } = resolveTiming(
    parsed.elements.map((element, index) => {
      const host = hostByElement.get(index);
      return { id: element.id, start: element.start, duration: element.duration ?? (host && embeddedDuration(host)) };
    }),
  );
  const { duration, source } = compositionDuration(parsed.root?.duration, timings);
  return { timings, errors, duration, durationSource: source };
}
