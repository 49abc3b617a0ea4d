import type { VirtualClock } from "./virtual-clock.js";

/** Where an animation stands in composition time: `offset + rate * (now - birth)`. */
interface VirtualPlayback {
  birth: number;
  offset: number;
  rate: number;
}

const nativeRequestAnimationFrame = window.requestAnimationFrame.bind(window);

/**
 * Puts every playing Web Animation of the document (CSS animations, CSS transitions, WAAPI) on
 * composition time. The document timeline follows the wall clock, so each animation is paused
 * as soon as the runtime sees it and from then on its current time is computed from the virtual
 * clock: an animation created at composition time 0 shows its state at t after seek(t).
 *
 * Animations the page paused itself, or that run on another timeline (scroll and view
 * timelines), are left alone; a paused one is taken over when the page plays it.
 */
export class WebAnimationSync {
  readonly #clock: VirtualClock;
  // Kept strongly: an animation past its end stops appearing in document.getAnimations(), but
  // must still be found to be seeked back.
  readonly #managed = new Map<Animation, VirtualPlayback>();
  /** The document timeline's time (wall clock) when the runtime last looked for new animations. */
  #lookedAt = 0;

  constructor(clock: VirtualClock) {
    this.#clock = clock;
  }

  /**
   * Adopts new animations at every clock change and on every real frame. A new animation stays
   * pending until the frame after it was created, with the current time its author gave it, so
   * adopting it no later than that frame loses no wall-clock time.
   */
  install(): void {
    this.#lookedAt = Number(document.timeline.currentTime ?? 0);
    this.#clock.onBeforeChange(() => this.adopt());
    const adoptEachFrame = (): void => {
      this.adopt();
      nativeRequestAnimationFrame(adoptEachFrame);
    };
    nativeRequestAnimationFrame(adoptEachFrame);
  }

  /**
   * Takes over the animations created since the last call; they were born at the clock's now. One
   * the browser already started (firefox-esr starts an animation at a paint that may come before
   * the runtime's next look) has moved on the wall clock since it started, at the earliest at the
   * last look: that time is taken off, leaving the current time its author gave it.
   */
  adopt(): void {
    const now = this.#clock.now();
    const wallNow = Number(document.timeline.currentTime ?? 0);
    for (const animation of document.getAnimations()) {
      if (this.#managed.has(animation) || animation.timeline !== document.timeline) continue;
      if (animation.playState === "paused" || animation.playState === "idle") continue;
      const started = animation.pending || animation.startTime === null ? undefined : Math.max(this.#lookedAt, Number(animation.startTime));
      const moved = started === undefined ? 0 : Math.max(0, wallNow - started) * animation.playbackRate;
      this.#managed.set(animation, {
        birth: now,
        offset: Number(animation.currentTime ?? 0) - moved,
        rate: animation.playbackRate,
      });
      animation.pause();
    }
    this.#lookedAt = wallNow;
  }

  /**
   * Where every adopted animation stands, as a string: equal strings mean every animation shows
   * what it showed before (same iteration, same progress, same phase).
   */
  fingerprint(): string {
    const parts: string[] = [];
    for (const animation of this.#managed.keys()) {
      const timing = animation.effect?.getComputedTiming();
      parts.push(`${timing?.currentIteration ?? "-"}:${timing?.progress ?? "-"}`);
    }
    return parts.join(",");
  }

  /** Sets every adopted animation to its state at the clock's now. */
  seek(): void {
    this.adopt();
    const now = this.#clock.now();
    for (const [animation, playback] of this.#managed) {
      if (animation.playState === "idle") {
        // Cancelled: a CSS animation whose element or rule went away, or cancel() by the page.
        this.#managed.delete(animation);
        continue;
      }
      if (animation.playState !== "paused") animation.pause();
      animation.currentTime = playback.offset + playback.rate * (now - playback.birth);
    }
  }
}
