import { describe, expect, it } from "vitest";
import { createStore } from "./store.js";

const newStore = () => createStore({ count: 0, name: "a", tags: [] as string[] });

describe("createStore", () => {
  it("merges a patch, or what a function makes of the state, into the state", () => {
    const store = newStore();
    store.update({ count: 2 });
    store.update((state) => ({ count: state.count + 1, name: "b" }));
    expect(store.get()).toEqual({ count: 3, name: "b", tags: [] });
  });

  it("calls a listener when its part changes, with the new part, and not when another part does", () => {
    const store = newStore();
    const counts: number[] = [];
    store.subscribe(
      (state) => state.count,
      (count) => counts.push(count),
    );
    store.update({ name: "b" });
    store.update({ count: 1 });
    store.update({ count: 1 });
    store.update({ count: 2, name: "c" });
    expect(counts).toEqual([1, 2]);
  });

  it("stops calling a listener once unsubscribed", () => {
    const store = newStore();
    const names: string[] = [];
    const unsubscribe = store.subscribe(
      (state) => state.name,
      (name) => names.push(name),
    );
    store.update({ name: "b" });
    unsubscribe();
    store.update({ name: "c" });
    expect(names).toEqual(["b"]);
  });

  it("skips a listener that an earlier one unsubscribed during the same update", () => {
    const store = newStore();
    const heard: string[] = [];
    let unsubscribeSecond = () => {};
    store.subscribe(
      (state) => state.count,
      () => {
        heard.push("first");
        unsubscribeSecond();
      },
    );
    unsubscribeSecond = store.subscribe(
      (state) => state.count,
      () => heard.push("second"),
    );
    store.update({ count: 1 });
    expect(heard).toEqual(["first"]);
  });

  it("lets a listener update the store: each listener hears the latest state once", () => {
    const store = newStore();
    store.subscribe(
      (state) => state.count,
      (count) => {
        if (count === 1) store.update({ name: "from the listener" });
      },
    );
    const heard: Array<[number, string]> = [];
    store.subscribe(
      (state) => `${state.count} ${state.name}`,
      () => heard.push([store.get().count, store.get().name]),
    );
    store.update({ count: 1 });
    expect(heard).toEqual([[1, "from the listener"]]);
  });

  it("compares parts by identity: a new array is a change, the same one is not", () => {
    const store = newStore();
    let calls = 0;
    store.subscribe(
      (state) => state.tags,
      () => calls++,
    );
    const tags = ["x"];
    store.update({ tags });
    store.update({ tags });
    store.update({ tags: ["x"] });
    expect(calls).toBe(2);
  });
});
