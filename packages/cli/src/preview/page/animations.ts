// The animations inside a composition: each registered GSAP timeline's tweens and each CSS or Web
// Animation, as segments in composition time, named by the element they move.

export interface AnimationSegment {
  /** The element moved: `#id`, else its tag and classes. */
  target: string;
  /** Its id, to put the segments under the element's own clip; undefined without one. */
  targetId: string | undefined;
  start: number;
  duration: number;
  /** "gsap" or "css" (CSS animations and transitions, Web Animations). */
  kind: "gsap" | "css";
}

interface Tween {
  startTime(): number;
  totalDuration(): number;
  parent?: Tween | null;
  targets?(): unknown[];
}

interface Timeline extends Tween {
  getChildren(nested: boolean, tweens: boolean, timelines: boolean): Tween[];
}

function describeTarget(target: unknown): { target: string; targetId: string | undefined } | undefined {
  const element = target as Element | null;
  if (typeof element !== "object" || element === null || typeof element.tagName !== "string") return undefined;
  if (element.id) return { target: `#${element.id}`, targetId: element.id };
  const classes = Array.from(element.classList ?? [])
    .map((name) => `.${name}`)
    .join("");
  return { target: `${element.tagName.toLowerCase()}${classes}`, targetId: undefined };
}

/** Seconds from the registered timeline's start to the tween's: its start plus its nested timelines'. */
function startIn(tween: Tween, root: Tween): number {
  let start = tween.startTime();
  for (let parent = tween.parent; parent && parent !== root; parent = parent.parent) start += parent.startTime();
  return start;
}

/** The segments of the composition running in `frame`, whose time 0 is `offset` seconds of the top composition. */
export function animationSegments(frame: Window, offset = 0): AnimationSegment[] {
  const segments: AnimationSegment[] = [];
  const registry = (frame as Window & { __timelines?: Record<string, unknown> }).__timelines ?? {};
  for (const value of Object.values(registry)) {
    const timeline = value as Partial<Timeline> | null;
    if (typeof timeline?.getChildren !== "function") continue;
    for (const tween of timeline.getChildren(true, true, false)) {
      for (const target of tween.targets?.() ?? []) {
        const named = describeTarget(target);
        if (named) segments.push({ ...named, start: offset + startIn(tween, timeline as Timeline), duration: tween.totalDuration(), kind: "gsap" });
      }
    }
  }
  for (const animation of frame.document.getAnimations?.() ?? []) {
    const effect = animation.effect as KeyframeEffect | null;
    const named = describeTarget(effect?.target);
    const timing = effect?.getComputedTiming();
    if (!named || !timing) continue;
    const delay = Number(timing.delay ?? 0) / 1000;
    const active = Number(timing.activeDuration ?? 0) / 1000;
    if (Number.isFinite(active)) segments.push({ ...named, start: offset + delay, duration: active, kind: "css" });
  }
  return segments;
}
