import type { AnimationFrames } from "./animation-frames.js";
import type { AwaitedWork } from "./awaited-work.js";
import { ChangeDetector } from "./change-detector.js";
import { applyClipVisibility } from "./clip-visibility.js";
import { findCompositionRoot } from "./composition-root.js";
import { frameAssetsReady } from "./frame-assets.js";
import type { HistoryWatch } from "./history-watch.js";
import { letGsapTickerFollowTheClock, seekRegisteredTimelines, sleepIdleGsapTicker } from "./gsap-timelines.js";
import { showVideoFrames, type GainLog } from "./media.js";
import { seekPlainFrames } from "./plain-frames.js";
import { seekSubCompositions } from "./sub-compositions.js";
import { readTimedElements, type TimedElement } from "./timed-elements.js";
import type { VirtualTimers } from "./timers.js";
import type { WebAnimationSync } from "./web-animations.js";

type SeekHandler = (t: number) => void | Promise<void>;

/**
 * seek(t): brings the page to its state at t seconds. Everything that can be computed from t
 * alone (GSAP timelines, Web Animations, clip visibility, rAF code that uses its timestamp) gives
 * the same frame whatever the order of seeks. Timers can only move forward: see VirtualTimers.
 */
export class Seeker {
  readonly #timers: VirtualTimers;
  readonly #frames: AnimationFrames;
  readonly #animations: WebAnimationSync;
  readonly #history: HistoryWatch;
  readonly #work: AwaitedWork;
  readonly #gains: GainLog;
  readonly #handlers = new Set<SeekHandler>();
  /** Handlers of the seek in progress whose promise has not settled. */
  #pendingHandlers = 0;
  #previous: Promise<unknown> = Promise.resolve();
  readonly #changes: ChangeDetector;
  #changed = true;

  constructor(timers: VirtualTimers, frames: AnimationFrames, animations: WebAnimationSync, history: HistoryWatch, work: AwaitedWork, gains: GainLog) {
    this.#timers = timers;
    this.#frames = frames;
    this.#animations = animations;
    this.#history = history;
    this.#work = work;
    this.#gains = gains;
    this.#changes = new ChangeDetector(timers, frames, animations);
  }

  onSeek(handler: SeekHandler): () => void {
    if (typeof handler !== "function") throw new TypeError("onSeek(fn) needs a function");
    this.#handlers.add(handler);
    return () => this.#handlers.delete(handler);
  }

  seek(t: number): Promise<void> {
    if (typeof t !== "number" || !Number.isFinite(t) || t < 0) {
      return Promise.reject(new RangeError(`seek(t) needs a time in seconds, 0 or more; got ${String(t)}`));
    }
    // One seek at a time: two interleaved seeks would fire timers and move the clock in turns.
    const seek = this.#previous.then(() => this.#seek(t));
    this.#previous = seek.catch(() => undefined);
    return seek;
  }

  async #seek(t: number): Promise<void> {
    // Rounded to whole microseconds (browsers coarsen performance.now too): frame 969 at 30 fps
    // would otherwise be 32299.999999999996 ms and miss a timer due at 32300 ms.
    const ms = Math.round(t * 1e6) / 1e3;
    letGsapTickerFollowTheClock();
    await this.#timers.advanceTo(ms);
    this.#frames.run(ms);
    // Also lets the microtasks of the frame's callbacks settle.
    await this.#timers.runDue();
    this.#applyState(t);
    await Promise.all(
      Array.from(this.#handlers, async (handler) => {
        this.#pendingHandlers++;
        try {
          await handler(t);
        } finally {
          this.#pendingHandlers--;
        }
      }),
    );
    await this.#work.settled();
    await frameAssetsReady();
    await this.#timers.runDue();
    // Again, for whatever the handlers and the waits changed: new animations, clips, timelines.
    const clips = this.#applyState(t);
    const [, instancesChanged, framesChanged] = await Promise.all([showVideoFrames(clips, t), seekSubCompositions(clips, t), seekPlainFrames(t)]);
    this.#changed = this.#changes.settle(t, instancesChanged || framesChanged || this.#handlers.size > 0);
    // Seeking a timeline woke GSAP's ticker; idle, it is no frame loop.
    sleepIdleGsapTicker();
    this.#history.check();
    this.#gains.record(t);
  }

  /** Whether an onSeek handler is registered: code that may do anything at any time. */
  get hasHandlers(): boolean {
    return this.#handlers.size > 0;
  }

  /** onSeek handlers of the seek in progress whose promise has not settled yet. */
  get pendingHandlers(): number {
    return this.#pendingHandlers;
  }

  /** Whether the last seek may have changed the frame; false only when it surely did not. */
  get changed(): boolean {
    return this.#changed;
  }

  #applyState(t: number): TimedElement[] {
    seekRegisteredTimelines(t);
    this.#animations.seek();
    const root = findCompositionRoot();
    if (!root) return [];
    const { elements } = readTimedElements(root);
    applyClipVisibility(elements, t);
    return elements;
  }
}
