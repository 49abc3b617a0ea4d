/**
 * Composition time in milliseconds. It starts at 0 when the page loads and moves only when seek
 * moves it; it never follows the wall clock.
 */
export class VirtualClock {
  #now = 0;
  readonly #beforeChange: Array<(now: number) => void> = [];

  now(): number {
    return this.#now;
  }

  set(ms: number): void {
    if (ms === this.#now) return;
    for (const listener of this.#beforeChange) listener(this.#now);
    this.#now = ms;
  }

  /**
   * Runs `listener(oldNow)` just before every change. Whatever the page created since the last
   * change was created at `oldNow`, which is how Web Animations learn their birth time.
   */
  onBeforeChange(listener: (now: number) => void): void {
    this.#beforeChange.push(listener);
  }
}
