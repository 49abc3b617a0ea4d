import type { AnimationFrames } from "./animation-frames.js";
import { eachInstance } from "./sub-compositions.js";
import { plainFrameRuntimes } from "./plain-frames.js";

/**
 * Watches whether the page's state builds up over time (see ComposeApi.needsHistory). A
 * requestAnimationFrame loop runs once per frame, and what it draws at frame n may depend on
 * every frame before; everything else the runtime drives (GSAP, Web Animations, clips, timers
 * carried in order by seek) is the same whether the page got to t frame by frame or at once.
 */
export class HistoryWatch {
  readonly #frames: AnimationFrames;
  #needed = false;

  constructor(frames: AnimationFrames) {
    this.#frames = frames;
  }

  /** Call when the page is ready and after every seek, so a loop that ran for a while is seen. */
  check(): void {
    this.#needed ||=
      this.#frames.pending || eachInstance((instance) => instance.api.needsHistory).some(Boolean) || plainFrameRuntimes().some((api) => api.needsHistory);
  }

  get needed(): boolean {
    this.check();
    return this.#needed;
  }
}
