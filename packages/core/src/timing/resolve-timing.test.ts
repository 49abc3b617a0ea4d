import { describe, expect, it } from "vitest";
import { compositionDuration, resolveTiming, type TimingInput } from "./resolve-timing.js";

function starts(inputs: TimingInput[]): Array<number | undefined> {
  return resolveTiming(inputs).timings.map((timing) => timing?.start);
}

describe("resolveTiming", () => {
  it.each<[string, TimingInput[], Array<number | undefined>]>([
    ["absent start is 0", [{ id: "a", duration: 2 }], [0]],
    ["seconds", [{ id: "a", start: "1.5" }], [1.5]],
    [
      "after the end of another",
      [
        { id: "a", start: "1", duration: 2 },
        { id: "b", start: "a" },
      ],
      [1, 3],
    ],
    [
      "plus an offset",
      [
        { id: "a", duration: 2 },
        { id: "b", start: "a + 0.5" },
      ],
      [0, 2.5],
    ],
    [
      "minus an offset",
      [
        { id: "a", duration: 2 },
        { id: "b", start: "a - 0.5" },
      ],
      [0, 1.5],
    ],
    [
      "forward reference",
      [
        { id: "b", start: "a + 1" },
        { id: "a", start: "2", duration: 1 },
      ],
      [4, 2],
    ],
    [
      "chain",
      [
        { id: "c", start: "b", duration: 1 },
        { id: "b", start: "a", duration: 1 },
        { id: "a", duration: 1 },
      ],
      [2, 1, 0],
    ],
  ])("%s", (_, inputs, expected) => {
    const result = resolveTiming(inputs);
    expect(result.errors).toEqual([]);
    expect(result.timings.map((timing) => timing?.start)).toEqual(expected);
  });

  it("computes end from start and duration", () => {
    expect(resolveTiming([{ id: "a", start: "1", duration: 2 }, { id: "b" }]).timings).toEqual([
      { start: 1, duration: 2, end: 3 },
      { start: 0, duration: undefined, end: undefined },
    ]);
  });

  it.each<[string, TimingInput[], { code: string; index: number; ids: string[]; message: string }]>([
    [
      "bad start",
      [{ id: "a", start: "in 2s" }],
      { code: "bad-start", index: 0, ids: ["a"], message: expect.stringContaining('data-start "in 2s" is not a start time') },
    ],
    [
      "unknown reference",
      [{ id: "a", start: "intro" }],
      { code: "unknown-reference", index: 0, ids: ["a", "intro"], message: '"a" starts after "intro", but no timed element has that id' },
    ],
    [
      "reference without duration",
      [{ id: "a" }, { id: "b", start: "a" }],
      {
        code: "reference-without-duration",
        index: 1,
        ids: ["b", "a"],
        message: '"b" starts after "a", whose duration is unknown: give "a" a data-duration',
      },
    ],
    [
      "negative seconds",
      [{ id: "a", start: "-1" }],
      { code: "negative-start", index: 0, ids: ["a"], message: '"a" would start at -1 s (data-start -1); a start must be 0 or later' },
    ],
    [
      "negative through an offset",
      [
        { id: "a", duration: 1 },
        { id: "b", start: "a - 2" },
      ],
      { code: "negative-start", index: 1, ids: ["b"], message: '"b" would start at -1 s (a - 2); a start must be 0 or later' },
    ],
    ["self reference", [{ id: "a", start: "a", duration: 1 }], { code: "cycle", index: 0, ids: ["a", "a"], message: "start times form a cycle: a -> a" }],
    [
      "two-element cycle",
      [
        { id: "a", start: "b", duration: 1 },
        { id: "b", start: "a + 1", duration: 1 },
      ],
      { code: "cycle", index: 0, ids: ["a", "b", "a"], message: "start times form a cycle: a -> b -> a" },
    ],
    [
      "cycle found from its middle is named from its first element",
      [
        { id: "x", start: "b", duration: 1 },
        { id: "a", start: "c", duration: 1 },
        { id: "b", start: "a", duration: 1 },
        { id: "c", start: "b", duration: 1 },
      ],
      { code: "cycle", index: 1, ids: ["a", "c", "b", "a"], message: "start times form a cycle: a -> c -> b -> a" },
    ],
  ])("reports %s", (_, inputs, expected) => {
    expect(resolveTiming(inputs).errors).toEqual([expected]);
  });

  it("leaves every member of a cycle and its dependents unresolved with one error", () => {
    const result = resolveTiming([
      { id: "a", start: "b", duration: 1 },
      { id: "b", start: "a", duration: 1 },
      { id: "c", start: "a", duration: 1 },
      { id: "d", start: "1", duration: 1 },
    ]);
    expect(result.errors).toHaveLength(1);
    expect(result.timings.map((timing) => timing?.start)).toEqual([undefined, undefined, undefined, 1]);
  });

  it("names elements without an id by position", () => {
    expect(resolveTiming([{ start: "1 s" }]).errors[0]?.message).toMatch(/^element #1: /);
  });

  it("resolves a chain as long as a big document without overflowing the stack", () => {
    const count = 100_000;
    const inputs: TimingInput[] = Array.from({ length: count }, (_, i) => ({
      id: `e${i}`,
      start: i === count - 1 ? "0" : `e${i + 1}`,
      duration: 1,
    }));
    expect(starts(inputs)[0]).toBe(count - 1);
  });
});

describe("compositionDuration", () => {
  const timings = resolveTiming([{ start: "1", duration: 2 }, { start: "0", duration: 5 }, { start: "9" }]).timings;

  it("prefers the declared duration", () => {
    expect(compositionDuration(3, timings, 7)).toEqual({ duration: 3, source: "data-duration" });
  });

  it("otherwise ends with the last element whose end is known", () => {
    expect(compositionDuration(undefined, timings, 7)).toEqual({ duration: 5, source: "clips" });
  });

  it("otherwise lasts as long as the longest registered timeline", () => {
    expect(compositionDuration(undefined, [{ start: 1, duration: undefined, end: undefined }], 2.5)).toEqual({ duration: 2.5, source: "timelines" });
  });

  it("is unknown when nothing has an end and no timeline has a length", () => {
    expect(compositionDuration(undefined, [undefined, { start: 1, duration: undefined, end: undefined }], 0)).toEqual({
      duration: undefined,
      source: undefined,
    });
  });
});
