/** The part of a GSAP timeline the runtime drives. */
interface SeekableTimeline {
  seek(time: number, suppressEvents?: boolean): unknown;
  paused(): boolean;
  pause(): unknown;
  render?(totalTime: number, suppressEvents?: boolean, force?: boolean): unknown;
}

/** What change detection reads of a GSAP animation (GSAP 3's Animation API). */
interface GsapAnimation {
  startTime(): number;
  totalDuration(): number;
  timeScale(): number;
  repeat?(): number;
  parent?: GsapAnimation | null;
  getChildren?(nested: boolean, tweens: boolean, timelines: boolean): GsapAnimation[];
}

interface GsapGlobal {
  ticker?: { lagSmoothing?(threshold: number): void; sleep?(): void; _listeners?: unknown[] };
  globalTimeline?: { getChildren?(nested: boolean, tweens: boolean, timelines: boolean): Array<{ paused(): boolean }> };
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

/** Timelines rendered at least once, each by its first seek. */
const seeked = new WeakSet<SeekableTimeline>();

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
    if (!seeked.has(timeline)) {
      seeked.add(timeline);
      // A new timeline's playhead is already at 0, so seeking there renders nothing and its
      // zero-duration tweens at 0 (`tl.set(el, vars, 0)`) would wait for the next frame. A forced
      // render applies them, in nested timelines too.
      timeline.render?.(t, false, true);
    }
  }
}

/**
 * GSAP's ticker runs on the (virtual) requestAnimationFrame and reads the (virtual) Date.now,
 * but by default it treats a jump of more than 500 ms as lag and swallows it. Without lag
 * smoothing, tweens that are not in a registered timeline play on composition time, in order.
 */
export function letGsapTickerFollowTheClock(): void {
  (window as TimelineWindow).gsap?.ticker?.lagSmoothing?.(0);
  sleepIdleGsapTicker();
}

/**
 * Puts GSAP's ticker to sleep when it has nothing to drive: every animation is paused (registered
 * timelines move by seek alone) and no listener but GSAP's own root update is on it. Awake, its
 * requestAnimationFrame loop would make every frame look changed and the page look as if it built
 * its state frame by frame. Every seek of a timeline wakes it again, so this runs after each seek.
 *
 * A playing tween outside a registered timeline keeps the ticker awake, and so the page replays
 * its history: such a tween starts at the global timeline's time when it is created, which for a
 * tween created by a callback or timer depends on the frames played before.
 */
export function sleepIdleGsapTicker(): void {
  const gsap = (window as TimelineWindow).gsap;
  const ticker = gsap?.ticker;
  // One listener is GSAP's own root update; any other is the page's frame loop.
  if ((ticker?._listeners?.length ?? 0) > 1) return;
  const children = gsap?.globalTimeline?.getChildren?.(false, true, true);
  if (children?.every((child) => child.paused())) ticker?.sleep?.();
}

/**
 * The spans, in registered-timeline seconds, during which a registered timeline's tweens move.
 * A tween nested in a repeating timeline counts for that whole timeline's span.
 */
function activeSpans(timeline: GsapAnimation): Array<[number, number]> | undefined {
  if (typeof timeline.getChildren !== "function") return undefined;
  if ((timeline.repeat?.() ?? 0) !== 0) return [[0, Infinity]];
  const spans: Array<[number, number]> = [];
  for (const tween of timeline.getChildren(true, true, false)) {
    let start = tween.startTime();
    let length = tween.totalDuration() / (tween.timeScale() || 1);
    for (let parent = tween.parent; parent && parent !== timeline; parent = parent.parent ?? null) {
      if ((parent.repeat?.() ?? 0) !== 0) {
        start = 0;
        length = parent.totalDuration();
      }
      start = parent.startTime() + start / (parent.timeScale() || 1);
      length /= parent.timeScale() || 1;
    }
    spans.push([start, start + length]);
  }
  return spans;
}

/**
 * Whether moving every registered timeline from `from` to `to` seconds can change anything: a
 * tween is active somewhere between them (callbacks such as onUpdate may draw on a canvas, which
 * no DOM observer sees). Unknown timeline shapes always count as changing.
 */
export function timelinesMoveBetween(from: number, to: number): boolean {
  const registry = (window as TimelineWindow).__timelines;
  if (typeof registry !== "object" || registry === null) return false;
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  for (const timeline of Object.values(registry)) {
    if (!isSeekableTimeline(timeline)) continue;
    const spans = activeSpans(timeline as unknown as GsapAnimation);
    if (!spans) return true;
    if (spans.some(([start, end]) => start <= high && end >= low)) return true;
  }
  return false;
}
