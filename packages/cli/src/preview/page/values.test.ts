import type { CompositionVariable } from "@compose/core";
import { describe, expect, it } from "vitest";
import { adoptDeclarations, bootConfig, changedInstances, changedValues, hostValues, instanceChanges, isChanged, renderCommand } from "./values.js";

const TITLE: CompositionVariable = { id: "title", type: "string", label: "Title", default: "Hi" };
const COLOUR: CompositionVariable = { id: "colour", type: "color", label: "Colour", default: "#FF0000" };
const SIZE: CompositionVariable = { id: "size", type: "number", label: "Size", default: 10 };
const MODE: CompositionVariable = {
  id: "mode",
  type: "enum",
  label: "Mode",
  default: "a",
  options: [
    { value: "a", label: "A" },
    { value: "b", label: "B" },
  ],
};

describe("the page's variable values", () => {
  it("counts a colour as changed only when it differs in more than case", () => {
    expect(isChanged(COLOUR, "#ff0000")).toBe(false);
    expect(isChanged(COLOUR, "#00ff00")).toBe(true);
    expect(isChanged(TITLE, undefined)).toBe(false);
  });

  it("keeps only the changed values, in declaration order", () => {
    expect(changedValues([TITLE, COLOUR, SIZE], { size: 12, title: "Hi", colour: "#ff0000" })).toEqual({ size: 12 });
  });

  it("gives an edited instance its host's values with the edits, and leaves unedited ones out", () => {
    const instances = [
      { id: "a", src: "card.html", values: { title: "From host", size: 3 }, variables: [TITLE, SIZE] },
      { id: "b", src: "card.html", values: {}, variables: [TITLE] },
    ];
    const edited = hostValues(instances);
    expect(edited).toEqual({ a: { title: "From host", size: 3 }, b: { title: "Hi" } });
    expect(changedInstances(instances, edited)).toEqual({});
    edited.a!.size = 4;
    expect(changedInstances(instances, edited)).toEqual({ a: { title: "From host", size: 4 } });
  });

  it("keeps values across a change of declarations when the type and the enum's options still allow them", () => {
    const before = [TITLE, SIZE, MODE];
    const after: CompositionVariable[] = [
      TITLE,
      { ...SIZE, type: "string", default: "10" } as CompositionVariable,
      { ...MODE, options: [{ value: "a", label: "A" }] } as CompositionVariable,
    ];
    expect(adoptDeclarations(after, before, { title: "Kept", size: 5, mode: "b" })).toEqual({ title: "Kept", size: "10", mode: "a" });
  });

  it("names instances in the boot config only when one was edited", () => {
    expect(bootConfig({ a: 1 }, {})).toEqual({ variables: { a: 1 } });
    expect(bootConfig({}, { card: { x: 1 } })).toEqual({ variables: {}, instances: { card: { x: 1 } } });
  });

  it("tells which instances an edit of instance values alone changes, back to the host's values when no longer edited", () => {
    const instances = [
      { id: "a", src: "card.html", values: { title: "From host" }, variables: [TITLE] },
      { id: "b", src: "card.html", values: {}, variables: [TITLE] },
    ];
    expect(instanceChanges({ variables: {} }, { variables: {}, instances: { a: { title: "Edited" } } }, instances)).toEqual({ a: { title: "Edited" } });
    expect(instanceChanges({ variables: {}, instances: { a: { title: "Edited" } } }, { variables: {} }, instances)).toEqual({ a: { title: "From host" } });
    expect(instanceChanges({ variables: {} }, { variables: { title: "Top" }, instances: { a: { title: "Edited" } } }, instances)).toBeUndefined();
  });

  it("builds the render command with the fps and values that differ, quoted for a shell", () => {
    expect(renderCommand("compose render a.html", 30, 30, {})).toBe("compose render a.html");
    expect(renderCommand("compose render a.html", 60, 30, { title: "it's" })).toBe(`compose render a.html --fps 60 --variables '{"title":"it'\\''s"}'`);
  });
});
