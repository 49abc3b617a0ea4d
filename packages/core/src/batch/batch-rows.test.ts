import { describe, expect, it } from "vitest";
import type { CompositionVariable } from "../variables/types.js";
import { rowIssues, rowProblemLine, typeTextRows } from "./batch-rows.js";

const DECLARATIONS: CompositionVariable[] = [
  { id: "name", type: "string", label: "Name", default: "Ada" },
  { id: "size", type: "number", label: "Size", default: 1 },
  { id: "dark", type: "boolean", label: "Dark", default: false },
  { id: "accent", type: "color", label: "Accent", default: "#ff0000" },
  {
    id: "side",
    type: "enum",
    label: "Side",
    default: "left",
    options: [
      { value: "left", label: "Left" },
      { value: "right", label: "Right" },
    ],
  },
];

describe("CSV rows typed by the declarations", () => {
  it("reads numbers, booleans, colours and enums; an empty cell is absent", () => {
    const { rows, problems } = typeTextRows(
      [
        { cells: { name: "Grace", size: " 2.5e1 ", dark: "TRUE", accent: "#00ff00", side: "right" }, line: 2 },
        { cells: { name: "", size: "-3", dark: "false", accent: "", side: "" }, line: 3 },
      ],
      DECLARATIONS,
    );
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { values: { name: "Grace", size: 25, dark: true, accent: "#00ff00", side: "right" }, line: 2 },
      { values: { size: -3, dark: false }, line: 3 },
    ]);
  });

  it("a cell that is not its type is the row's error, named with its row and line", () => {
    const { problems } = typeTextRows([{ cells: { size: "big", dark: "yes" }, line: 4 }], DECLARATIONS);
    expect(problems.map(rowProblemLine)).toEqual([
      `row 1 (line 4): "size" must be a number, got "big"`,
      `row 1 (line 4): "dark" must be a boolean (true or false), got "yes"`,
    ]);
    expect(problems.every((problem) => problem.kind === "error")).toBe(true);
  });
});

describe("row issues", () => {
  const rows = [{ values: { name: "Ok" } }, { values: { colour: "#000000", side: "up" }, line: 7 }];

  it("are worded as --variables words them, with what the render does with the value", () => {
    expect(rowIssues(rows, DECLARATIONS, false).map(rowProblemLine)).toEqual([
      `row 2 (line 7): "colour" is not a declared variable (declared: name, size, dark, accent, side); ignored`,
      `row 2 (line 7): "side" must be one of "left", "right", got "up"; the default "left" is used`,
    ]);
  });

  it("under --strict-variables say only what is wrong", () => {
    expect(rowIssues(rows, DECLARATIONS, true).map((problem) => problem.message)).toEqual([
      `"colour" is not a declared variable (declared: name, size, dark, accent, side)`,
      `"side" must be one of "left", "right", got "up"`,
    ]);
  });
});
