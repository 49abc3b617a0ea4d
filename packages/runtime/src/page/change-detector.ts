import type { AnimationFrames } from "./animation-frames.js";
import { timelinesMoveBetween } from "./gsap-timelines.js";
import type { VirtualTimers } from "./timers.js";
import type { WebAnimationSync } from "./web-animations.js";

interface Snapshot {
  t: number;
  timersRan: number;
  framesRan: number;
  animations: string;
  images: number;
  fonts: string;
}

function loadedImages(): number {
  let count = 0;
  for (const image of document.images) if (image.complete && image.naturalWidth > 0) count++;
  return count;
}

/**
 * Tells whether a seek may have changed what the frame shows, so the renderer can reuse the
 * previous frame's pixels when it did not. It errs towards "changed": any DOM mutation, any timer
 * or requestAnimationFrame callback, any onSeek handler, any Web Animation whose progress moved,
 * any GSAP tween active between the two times, any image or font that finished loading, and any
 * sub-composition that changed.
 */
export class ChangeDetector {
  readonly #timers: VirtualTimers;
  readonly #frames: AnimationFrames;
  readonly #animations: WebAnimationSync;
  readonly #mutations: MutationObserver;
  #previous: Snapshot | undefined;
  #mutated = false;

  constructor(timers: VirtualTimers, frames: AnimationFrames, animations: WebAnimationSync) {
    this.#timers = timers;
    this.#frames = frames;
    this.#animations = animations;
    // Records reach the callback at the next microtask checkpoint, long before a seek ends.
    this.#mutations = new MutationObserver((records) => {
      this.#mutated ||= records.length > 0;
    });
    this.#mutations.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  #snapshot(t: number): Snapshot {
    return {
      t,
      timersRan: this.#timers.ran,
      framesRan: this.#frames.ran,
      animations: this.#animations.fingerprint(),
      images: loadedImages(),
      fonts: document.fonts.status,
    };
  }

  /** Call after a seek to `t` completed; `extra` is what else may have changed (handlers, children). */
  settle(t: number, extra: boolean): boolean {
    const mutated = this.#mutated || this.#mutations.takeRecords().length > 0;
    this.#mutated = false;
    const now = this.#snapshot(t);
    const before = this.#previous;
    this.#previous = now;
    if (!before || extra || mutated) return true;
    return (
      now.timersRan !== before.timersRan ||
      now.framesRan !== before.framesRan ||
      now.animations !== before.animations ||
      now.images !== before.images ||
      now.fonts !== before.fonts ||
      timelinesMoveBetween(before.t, t)
    );
  }
}
