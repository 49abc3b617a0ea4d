/** The part of a GSAP timeline the runtime drives. */
interface SeekableTimeline {
  seek(time: number, suppressEvents?: boolean): unknown;
  paused(): boolean;
  pause(): unknown;
}

interface GsapGlobal {
  ticker?: { lagSmoothing?(threshold: number): void };
}

type TimelineWindow = Window & { __timelines?: Record<string, unknown>; gsap?: GsapGlobal };

function isSeekableTimeline(value: unknown): value is SeekableTimeline {
  const timeline = value as Partial<SeekableTimeline> | null;
  return (
    typeof timeline === "object" &&
    timeline !== null &&
    typeof timeline.seek === "function" &&
    typeof timeline.paused === "function" &&
    typeof timeline.pause === "function"
  );
}

/** Authors register their timelines here, keyed by composition id; it exists before they run. */
export function createTimelineRegistry(): void {
  const page = window as TimelineWindow;
  page.__timelines ??= {};
}

/**
 * Seeks every timeline in `window.__timelines` to `t` seconds, with callbacks enabled. A timeline
 * the author left playing is paused first, so that only seek drives it.
 */
export function seekRegisteredTimelines(t: number): void {
  const registry = (window as TimelineWindow).__timelines;
  if (typeof registry !== "object" || registry === null) return;
  for (const timeline of Object.values(registry)) {
    if (!isSeekableTimeline(timeline)) continue;
    if (!timeline.paused()) timeline.pause();
    timeline.seek(t, false);
  }
}

/**
 * GSAP's ticker runs on the (virtual) requestAnimationFrame and reads the (virtual) Date.now,
 * but by default it treats a jump of more than 500 ms as lag and swallows it. Without lag
 * smoothing, tweens that are not in a registered timeline play on composition time, in order.
 */
export function letGsapTickerFollowTheClock(): void {
  (window as TimelineWindow).gsap?.ticker?.lagSmoothing?.(0);
}
