import { describe, expect, it } from "vitest";
import type { CompositionVariable } from "./types.js";
import { validateVariableValues } from "./validate-values.js";

const DECLARATIONS: CompositionVariable[] = [
  { id: "title", type: "string", label: "Title", default: "Hi" },
  { id: "speed", type: "number", label: "Speed", default: 1 },
  { id: "accent", type: "color", label: "Accent", default: "#000000" },
  { id: "badge", type: "boolean", label: "Badge", default: true },
  {
    id: "mood",
    type: "enum",
    label: "Mood",
    default: "calm",
    options: [
      { value: "calm", label: "Calm" },
      { value: "loud", label: "Loud" },
    ],
  },
];

describe("validateVariableValues", () => {
  it("accepts values of the declared types and ignores undefined ones", () => {
    expect(validateVariableValues(DECLARATIONS, { title: "", speed: -3.5, accent: "#A0b1C2", badge: false, mood: "loud", other: undefined })).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, object]>([
    [
      "an undeclared key",
      { colour: "#ffffff" },
      {
        code: "undeclared",
        variable: "colour",
        expected: "a declared variable (title, speed, accent, badge, mood)",
        actual: "colour",
        message: '"colour" is not a declared variable (declared: title, speed, accent, badge, mood); ignored',
      },
    ],
    [
      "a string for a number",
      { speed: "2" },
      { code: "type-mismatch", variable: "speed", expected: "a number", actual: '"2"', message: '"speed" must be a number, got "2"; the default 1 is used' },
    ],
    [
      "a number for a string",
      { title: 5 },
      { code: "type-mismatch", variable: "title", expected: "a string", actual: "5", message: '"title" must be a string, got 5; the default "Hi" is used' },
    ],
    [
      "null for a boolean",
      { badge: null },
      {
        code: "type-mismatch",
        variable: "badge",
        expected: "a boolean",
        actual: "null",
        message: '"badge" must be a boolean, got null; the default true is used',
      },
    ],
    [
      "a colour name",
      { accent: "red" },
      {
        code: "type-mismatch",
        variable: "accent",
        expected: "a #rrggbb color",
        actual: '"red"',
        message: '"accent" must be a #rrggbb color, got "red"; the default "#000000" is used',
      },
    ],
    [
      "an array for an enum",
      { mood: ["calm"] },
      {
        code: "type-mismatch",
        variable: "mood",
        expected: "a string",
        actual: "an array",
        message: '"mood" must be a string, got an array; the default "calm" is used',
      },
    ],
    [
      "an enum value outside the options",
      { mood: "angry" },
      {
        code: "enum-out-of-range",
        variable: "mood",
        expected: 'one of "calm", "loud"',
        actual: '"angry"',
        message: '"mood" must be one of "calm", "loud", got "angry"; the default "calm" is used',
      },
    ],
  ])("reports %s", (_, values, issue) => {
    // The problem alone, for a render that stops, is the message without what a going render does.
    const problem = (issue as { message: string }).message.replace(/; (ignored|the default .* is used)$/, "");
    expect(validateVariableValues(DECLARATIONS, values)).toEqual([{ ...issue, problem }]);
  });

  it("suggests the declared variable a mistyped key likely meant", () => {
    expect(validateVariableValues(DECLARATIONS, { titel: "Hey" })[0]?.message).toBe(
      '"titel" is not a declared variable; did you mean "title"? (declared: title, speed, accent, badge, mood); ignored',
    );
  });

  it("says so when nothing is declared", () => {
    expect(validateVariableValues([], { a: 1 })[0]?.message).toBe('"a" is not a declared variable (declared: none); ignored');
  });

  it("reports every bad key", () => {
    expect(validateVariableValues(DECLARATIONS, { speed: "x", mood: "x", nope: 1 }).map((issue) => issue.code)).toEqual([
      "type-mismatch",
      "enum-out-of-range",
      "undeclared",
    ]);
  });
});
