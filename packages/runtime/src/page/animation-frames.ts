/**
 * requestAnimationFrame on the virtual clock: callbacks wait until the next seek, which runs them
 * once, as one frame at the seek time. Callbacks they request go to the frame after.
 */
export class AnimationFrames {
  #callbacks = new Map<number, FrameRequestCallback>();
  #running: Map<number, FrameRequestCallback> | undefined;
  #lastId = 0;

  install(): void {
    window.requestAnimationFrame = (callback: FrameRequestCallback): number => {
      const id = ++this.#lastId;
      this.#callbacks.set(id, callback);
      return id;
    };
    window.cancelAnimationFrame = (id: number): void => {
      this.#callbacks.delete(id);
      // A callback may cancel another one of the same frame that has not run yet.
      this.#running?.delete(id);
    };
  }

  /** Whether callbacks wait for the next frame: code that draws frame after frame. */
  get pending(): boolean {
    return this.#callbacks.size > 0;
  }

  /** How many callbacks have run: a seek that ran none changed nothing through rAF. */
  ran = 0;

  run(timestampMs: number): void {
    const frame = this.#callbacks;
    this.ran += frame.size;
    this.#callbacks = new Map();
    this.#running = frame;
    for (const callback of frame.values()) {
      try {
        callback(timestampMs);
      } catch (error) {
        reportError(error);
      }
    }
    this.#running = undefined;
  }
}
