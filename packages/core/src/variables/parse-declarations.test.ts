import { describe, expect, it } from "vitest";
import { parseVariableDeclarations } from "./parse-declarations.js";

const TITLE = { id: "title", type: "string", label: "Title", default: "Hi" };

function findingsFor(declarations: unknown[]): Array<{ code: string; message: string }> {
  return parseVariableDeclarations(JSON.stringify(declarations)).findings.map(({ code, message }) => ({ code, message }));
}

describe("parseVariableDeclarations", () => {
  it("returns nothing for an absent attribute", () => {
    expect(parseVariableDeclarations(undefined)).toEqual({ variables: [], findings: [] });
    expect(parseVariableDeclarations(null)).toEqual({ variables: [], findings: [] });
  });

  it("keeps every field of a well-formed declaration of each type", () => {
    const declarations = [
      { id: "title", type: "string", label: "Title", default: "Hi", placeholder: "…", maxLength: 10, description: "kept" },
      { id: "speed", type: "number", label: "Speed", default: 1, min: 0, max: 4, step: 0.5, unit: "x" },
      { id: "accent", type: "color", label: "Accent", default: "#FF5a36" },
      { id: "badge", type: "boolean", label: "Badge", default: false },
      { id: "mood", type: "enum", label: "Mood", default: "calm", options: [{ value: "calm", label: "Calm" }] },
    ];
    expect(parseVariableDeclarations(JSON.stringify(declarations))).toEqual({ variables: declarations, findings: [] });
  });

  it("reports a JSON syntax error with its offset", () => {
    expect(parseVariableDeclarations('[{"id": "a",}]').findings).toEqual([
      {
        code: "variables-invalid-json",
        message: "data-composition-variables is not valid JSON: expected a property name in double quotes but found '}'",
        offset: 12,
      },
    ]);
  });

  it("reports a value that is not an array", () => {
    expect(parseVariableDeclarations('{"id": "a"}').findings).toEqual([
      { code: "variables-not-array", message: "data-composition-variables must be a JSON array of declarations, got an object" },
    ]);
  });

  it.each<[string, unknown, string, string]>([
    ["not an object", "title", "variable-not-object", 'declaration #1 must be an object, got "title"'],
    ["missing id", { type: "string", label: "T", default: "" }, "variable-missing-field", 'declaration #1: "id" is missing'],
    ["missing type", { id: "t", label: "T", default: "" }, "variable-missing-field", 'variable "t": "type" is missing'],
    ["missing label", { id: "t", type: "string", default: "" }, "variable-missing-field", 'variable "t": "label" is missing'],
    ["missing default", { id: "t", type: "string", label: "T" }, "variable-missing-field", 'variable "t": "default" is missing'],
    ["empty id", { ...TITLE, id: "" }, "variable-invalid-field", 'declaration #1: "id" must be a non-empty string, got ""'],
    ["label not a string", { ...TITLE, label: 3 }, "variable-invalid-field", 'variable "title": "label" must be a string, got 3'],
    ["unknown type", { ...TITLE, type: "text" }, "variable-unknown-type", 'variable "title": type "text" is not one of string, number, color, boolean, enum'],
    ["maxLength not a count", { ...TITLE, maxLength: -1 }, "variable-invalid-field", '"maxLength" must be a whole number 0 or more, got -1'],
    ["min not a number", { id: "n", type: "number", label: "N", default: 1, min: "0" }, "variable-invalid-field", '"min" must be a number, got "0"'],
    ["string default not a string", { ...TITLE, default: 5 }, "variable-default-mismatch", 'variable "title": default 5 is not a string'],
    ["string default too long", { ...TITLE, maxLength: 1 }, "variable-default-mismatch", "default is 2 characters long, over maxLength 1"],
    ["number default is a string", { id: "n", type: "number", label: "N", default: "1" }, "variable-default-mismatch", 'default "1" is not a number'],
    ["number default below min", { id: "n", type: "number", label: "N", default: 0, min: 1 }, "variable-default-mismatch", "default 0 is below min 1"],
    ["number default above max", { id: "n", type: "number", label: "N", default: 5, max: 4 }, "variable-default-mismatch", "default 5 is above max 4"],
    ["color by name", { id: "c", type: "color", label: "C", default: "red" }, "variable-default-mismatch", 'default "red" is not a #rrggbb color'],
    ["short color", { id: "c", type: "color", label: "C", default: "#fff" }, "variable-default-mismatch", 'default "#fff" is not a #rrggbb color'],
    ["boolean as string", { id: "b", type: "boolean", label: "B", default: "true" }, "variable-default-mismatch", 'default "true" is not a boolean'],
    [
      "enum default not an option",
      { id: "e", type: "enum", label: "E", default: "x", options: [{ value: "a", label: "A" }] },
      "variable-default-mismatch",
      'default "x" is not one of the options "a"',
    ],
    ["enum without options", { id: "e", type: "enum", label: "E", default: "a" }, "variable-invalid-options", 'an enum needs "options"'],
    ["enum with empty options", { id: "e", type: "enum", label: "E", default: "a", options: [] }, "variable-invalid-options", 'an enum needs "options"'],
    ["enum with bare strings", { id: "e", type: "enum", label: "E", default: "a", options: ["a"] }, "variable-invalid-options", 'an enum needs "options"'],
    [
      "enum option without label",
      { id: "e", type: "enum", label: "E", default: "a", options: [{ value: "a" }] },
      "variable-invalid-options",
      'an enum needs "options"',
    ],
    [
      "enum with repeated values",
      {
        id: "e",
        type: "enum",
        label: "E",
        default: "a",
        options: [
          { value: "a", label: "A" },
          { value: "a", label: "B" },
        ],
      },
      "variable-invalid-options",
      "distinct values",
    ],
    ["min above max", { id: "n", type: "number", label: "N", default: 1, min: 2, max: 1 }, "variable-min-above-max", "min 2 is greater than max 1"],
    ["zero step", { id: "n", type: "number", label: "N", default: 1, step: 0 }, "variable-invalid-step", "step 0 must be greater than 0"],
    ["negative step", { id: "n", type: "number", label: "N", default: 1, step: -1 }, "variable-invalid-step", "step -1 must be greater than 0"],
  ])("reports %s and drops the declaration", (_, declaration, code, message) => {
    const result = parseVariableDeclarations(JSON.stringify([declaration]));
    expect(result.findings.map((finding) => finding.code)).toContain(code);
    expect(result.findings.find((finding) => finding.code === code)?.message).toContain(message);
    expect(result.variables).toEqual([]);
  });

  it("keeps the well-formed declarations beside a malformed one", () => {
    const result = parseVariableDeclarations(JSON.stringify([{ id: "bad", type: "number" }, TITLE]));
    expect(result.variables).toEqual([TITLE]);
    expect(new Set(result.findings.map((finding) => finding.index))).toEqual(new Set([0]));
  });

  it("reports each missing field separately and points at the declaration", () => {
    const text = `[\n  {"id": "a", "type": "string", "label": "A", "default": ""},\n  {"id": "b"}\n]`;
    const result = parseVariableDeclarations(text);
    expect(result.findings.map(({ code, index, offset }) => ({ code, index, offset }))).toEqual([
      { code: "variable-missing-field", index: 1, offset: text.indexOf('{"id": "b"}') },
      { code: "variable-missing-field", index: 1, offset: text.indexOf('{"id": "b"}') },
      { code: "variable-missing-field", index: 1, offset: text.indexOf('{"id": "b"}') },
    ]);
    expect(result.variables.map((variable) => variable.id)).toEqual(["a"]);
  });

  it("keeps the first of two declarations with the same id", () => {
    const result = parseVariableDeclarations(JSON.stringify([TITLE, { ...TITLE, label: "Again" }]));
    expect(findingsFor([TITLE, { ...TITLE, label: "Again" }])).toEqual([
      {
        code: "variable-duplicate-id",
        message: 'variable "title" is declared twice (declarations #1 and #2); ids must be unique',
      },
    ]);
    expect(result.variables).toEqual([TITLE]);
  });

  it("accepts a default on the boundaries of its range and length", () => {
    expect(
      findingsFor([
        { id: "n", type: "number", label: "N", default: 4, min: 4, max: 4, step: 1 },
        { id: "s", type: "string", label: "S", default: "ab", maxLength: 2 },
      ]),
    ).toEqual([]);
  });
});
