// A store of state that panels share: each reads and writes it here and hears of the changes to
// the part it shows by subscribing to it. No DOM here.

export interface Store<State extends object> {
  get(): Readonly<State>;
  /** Merges the patch (or what `change` makes of the state now) into the state, then calls the listeners whose part changed. */
  update(change: Partial<State> | ((state: Readonly<State>) => Partial<State>)): void;
  /**
   * Calls `listener` with `select(state)` after each update that changes it (compared with
   * Object.is: a selector that builds a new object or array each time changes every time).
   * Returns what ends the subscription.
   */
  subscribe<Part>(select: (state: Readonly<State>) => Part, listener: (part: Part) => void): () => void;
}

interface Subscription<State> {
  select(state: State): unknown;
  listener(part: unknown): void;
  last: unknown;
}

export function createStore<State extends object>(initial: State): Store<State> {
  let state = initial;
  const subscriptions = new Set<Subscription<State>>();
  return {
    get: () => state,
    update(change) {
      state = { ...state, ...(typeof change === "function" ? change(state) : change) };
      // A listener may update the store in turn: every listener after it sees that state, once.
      for (const subscription of [...subscriptions]) {
        if (!subscriptions.has(subscription)) continue;
        const part = subscription.select(state);
        if (Object.is(part, subscription.last)) continue;
        subscription.last = part;
        subscription.listener(part);
      }
    },
    subscribe(select, listener) {
      const subscription: Subscription<State> = { select, listener: listener as (part: unknown) => void, last: select(state) };
      subscriptions.add(subscription);
      return () => void subscriptions.delete(subscription);
    },
  };
}
