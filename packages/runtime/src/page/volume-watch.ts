import { eachInstance } from "./sub-compositions.js";

/**
 * Tells whether the media's gains may move once the page is ready (ComposeApi.volumesMayChange).
 * A script changes a gain only by writing an element's `volume` or `muted`, which the setters
 * installed here count, whatever drives the script: a timer, a GSAP tween, a callback.
 */
export class VolumeWatch {
  #writes = 0;
  #atReady = 0;

  install(): void {
    const count = () => void this.#writes++;
    for (const name of ["volume", "muted"] as const) {
      const property = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, name);
      const set = property?.set;
      if (!property || !set) continue;
      Object.defineProperty(HTMLMediaElement.prototype, name, {
        ...property,
        set(this: HTMLMediaElement, value: unknown) {
          count();
          set.call(this, value);
        },
      });
    }
  }

  /** Call when the page is ready: what its scripts set while loading is where the gains start. */
  ready(): void {
    this.#atReady = this.#writes;
  }

  /**
   * Whether a gain was written here or in an instance since ready, or may be unseen: an onSeek
   * handler can set a volume at some times and not at others.
   */
  mayChange(seekHandlers: boolean): boolean {
    return seekHandlers || this.#writes !== this.#atReady || eachInstance((instance) => instance.api.volumesMayChange).some(Boolean);
  }
}
