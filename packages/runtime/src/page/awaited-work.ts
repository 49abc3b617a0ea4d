/**
 * Work a composition hands to `__compose.waitFor(promise, label)`: data it fetches, a model it
 * builds. ready() and every seek wait until all of it has settled, so no frame is captured
 * before the data it draws has arrived; a rejection is a page error, which fails the render.
 */
export class AwaitedWork {
  readonly #pending = new Map<Promise<unknown>, string>();

  waitFor<T>(promise: PromiseLike<T>, label?: unknown): Promise<T> {
    if (!promise || typeof (promise as PromiseLike<T>).then !== "function") {
      throw new TypeError("__compose.waitFor(promise, label) needs a promise");
    }
    const name = label === undefined ? `promise ${this.#pending.size + 1}` : String(label);
    const tracked = Promise.resolve(promise).then(
      (value) => value,
      (reason: unknown) => {
        const message = reason instanceof Error ? reason.message : String(reason);
        // Reported like an uncaught error of the page, so the render fails with it.
        reportError(new Error(`__compose.waitFor("${name}") rejected: ${message}`));
        throw reason;
      },
    );
    const settled = tracked.then(
      () => undefined,
      () => undefined,
    );
    this.#pending.set(settled, name);
    void settled.then(() => this.#pending.delete(settled));
    // The caller may ignore the result; its rejection is already reported.
    tracked.catch(() => undefined);
    return tracked;
  }

  /** Labels of the promises not settled yet, for a timeout's message. */
  get waiting(): string[] {
    return [...this.#pending.values()];
  }

  /** Resolves when every promise handed over so far, and any handed over meanwhile, has settled. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending.keys());
  }
}
