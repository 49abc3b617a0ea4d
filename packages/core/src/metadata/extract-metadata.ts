import { parseComposition } from "../html/parse-composition.js";
import type { TimedElementKind } from "../html/types.js";
import type { DurationSource } from "../timing/resolve-timing.js";
import type { CompositionVariable, VariableValues } from "../variables/types.js";
import { resolveCompositionTiming } from "./resolve-composition-timing.js";

export interface CompositionInstance {
  id: string | undefined;
  src: string;
  /** Seconds, or undefined when the start cannot be resolved statically. */
  start: number | undefined;
  duration: number | undefined;
  /** data-variable-values; empty when absent or malformed. */
  values: VariableValues;
}

export interface CompositionMedia {
  id: string | undefined;
  kind: Extract<TimedElementKind, "video" | "audio" | "img">;
  /** Undefined when a script sets it at runtime. */
  src: string | undefined;
  start: number | undefined;
  /** Undefined when data-duration is absent: the renderer probes the file. */
  duration: number | undefined;
  track: number | undefined;
  hasAudio: boolean | undefined;
}

export interface CompositionMetadata {
  /** Undefined when the HTML has no composition root or the root lacks the attribute; lint says why. */
  id: string | undefined;
  width: number | undefined;
  height: number | undefined;
  /**
   * data-duration, else the end of the last timed element; undefined if unknown statically (the
   * renderer then takes the longest registered GSAP timeline, which only running the page tells).
   */
  duration: number | undefined;
  durationSource: Exclude<DurationSource, "timelines"> | undefined;
  variables: CompositionVariable[];
  /** data-opaque on the composition element: an opaque frame is what the author means, in any format. */
  opaque: boolean;
  instances: CompositionInstance[];
  media: CompositionMedia[];
}

export interface MetadataOptions {
  /**
   * The duration of the composition a host embeds (by its data-composition-src), for hosts
   * without data-duration: it lives in another file, which this pure function cannot read.
   */
  embeddedDuration?: (src: string) => number | undefined;
}

/** What can be known about a composition without rendering it. Never throws on bad markup. */
export function extractCompositionMetadata(html: string, options: MetadataOptions = {}): CompositionMetadata {
  const parsed = parseComposition(html);
  const { embeddedDuration } = options;
  const { timings, duration, durationSource } = resolveCompositionTiming(parsed, embeddedDuration && ((host) => embeddedDuration(host.src)));
  return {
    id: parsed.root?.id,
    width: parsed.root?.width,
    height: parsed.root?.height,
    duration,
    durationSource: durationSource === "timelines" ? undefined : durationSource,
    variables: parsed.declarations.variables,
    opaque: parsed.root?.opaque ?? false,
    instances: parsed.hosts.map((host) => ({
      id: host.id,
      src: host.src,
      start: timings[host.element]?.start,
      duration: timings[host.element]?.duration,
      values: host.variableValues?.values ?? {},
    })),
    media: parsed.elements.flatMap((element, index) =>
      element.kind === "video" || element.kind === "audio" || element.kind === "img"
        ? [
            {
              id: element.id,
              kind: element.kind,
              src: element.src,
              start: timings[index]?.start,
              duration: element.duration,
              track: element.track,
              hasAudio: element.hasAudio,
            },
          ]
        : [],
    ),
  };
}
