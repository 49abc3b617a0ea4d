import { describe, expect, it } from "vitest";
import { resolveVariableValues } from "./resolve-values.js";
import type { CompositionVariable, VariableValues } from "./types.js";

const DECLARATIONS: CompositionVariable[] = [
  { id: "title", type: "string", label: "Title", default: "Hello" },
  { id: "speed", type: "number", label: "Speed", default: 1 },
  { id: "badge", type: "boolean", label: "Badge", default: true },
];

describe("resolveVariableValues", () => {
  it.each<[string, Array<VariableValues | undefined>, Record<string, unknown>]>([
    ["defaults alone", [], { title: "Hello", speed: 1, badge: true }],
    ["a host override", [{ title: "Card" }], { title: "Card", speed: 1, badge: true }],
    ["the higher layer wins", [{ title: "Card", speed: 2 }, { title: "CLI" }], { title: "CLI", speed: 2, badge: true }],
    ["a missing layer falls through", [undefined, { speed: 3 }], { title: "Hello", speed: 3, badge: true }],
    ["undefined falls through to the layer below", [{ speed: 2 }, { speed: undefined }], { title: "Hello", speed: 2, badge: true }],
    ["false and empty values still override", [{ badge: false, title: "" }], { title: "", speed: 1, badge: false }],
    ["undeclared keys are ignored", [{ extra: "x" }], { title: "Hello", speed: 1, badge: true }],
    ["a value of the wrong type falls through to the layer below", [{ speed: 2 }, { speed: "3" }], { title: "Hello", speed: 2, badge: true }],
    ["a value of the wrong type gives way to the default", [{ badge: "yes" }], { title: "Hello", speed: 1, badge: true }],
  ])("%s", (_, layers, expected) => {
    expect(resolveVariableValues(DECLARATIONS, ...layers)).toEqual(expected);
  });

  it("keeps a variable declared as __proto__ as data", () => {
    const layer = JSON.parse('{"__proto__": "set"}') as VariableValues;
    const resolved = resolveVariableValues([{ id: "__proto__", type: "string", label: "Odd", default: "" }], layer);
    expect(Object.getPrototypeOf(resolved)).toBe(Object.prototype);
    expect(Object.entries(resolved)).toEqual([["__proto__", "set"]]);
  });
});
