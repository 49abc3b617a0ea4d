/** The lowest pace the sounds follow: below it, browsers mute an element's sound (firefox-esr under 0.25). */
const MIN_PACE = 0.25;

/** Frames shown this close to their time keep up: a timer fires a little late. */
const IN_TIME = 0.95;

/** How many of the last frames shown the pace is measured over: enough to even out one slow seek. */
const WINDOW = 8;

/**
 * How fast a play's frames are shown against the time they stand for: 1 while each page seek keeps
 * up with the frame rate, less when seeks are slower (a busy machine, a heavy page) and the player
 * shows every frame late. The sounds play at this pace too, so that what is heard stays with the
 * frame on screen instead of running ahead and being pulled back at every frame. One a play.
 */
export class FramePace {
  /** When each of the last frames was shown (performance.now()). */
  readonly #shown: number[] = [];

  /** A frame was shown at `at`, each frame standing for `frameMs`; the pace now, from MIN_PACE to 1. */
  frameShown(at: number, frameMs: number): number {
    this.#shown.push(at);
    if (this.#shown.length > WINDOW + 1) this.#shown.shift();
    if (this.#shown.length < 3) return 1;
    const took = this.#shown.at(-1)! - this.#shown[0]!;
    const stoodFor = (this.#shown.length - 1) * frameMs;
    const pace = stoodFor / took;
    return pace >= IN_TIME ? 1 : Math.max(MIN_PACE, pace);
  }
}
