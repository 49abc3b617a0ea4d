import { describe, expect, it } from "vitest";
import type { CompositionVariable } from "../variables/types.js";
import { expandOutputTemplate, fileNamePart, outputTemplateProblem, rowIndexText, sharedOutput } from "./output-template.js";

const DECLARATIONS: CompositionVariable[] = [
  { id: "name", type: "string", label: "Name", default: "Ada Lovelace" },
  { id: "size", type: "number", label: "Size", default: 1 },
];

describe("batch output templates", () => {
  it("{index} counts from 1, zero-padded to the row count's width", () => {
    expect([rowIndexText(0, 9), rowIndexText(0, 12), rowIndexText(11, 12), rowIndexText(41, 10_000)]).toEqual(["1", "01", "12", "00042"]);
  });

  it("fills {index}, {ext} and variables (the row's value, else the default), safe for a file name", () => {
    const expand = (values: Record<string, unknown>) =>
      expandOutputTemplate("out/{index}-{name}-{size}.{ext}", { index: 2, count: 12, values }, DECLARATIONS, ".mp4");
    expect(expand({ name: "Renée / O'Brien", size: 2.5 })).toBe("out/03-Renee-O-Brien-2.5.mp4");
    expect(expand({})).toBe("out/03-Ada-Lovelace-1.mp4");
    expect(expand({ name: "../../etc" })).toBe("out/03-etc-1.mp4");
    expect(expand({ name: "///" })).toBe("out/03-_-1.mp4");
  });

  it("a value never becomes a hidden file, a parent directory or an over-long name", () => {
    expect(fileNamePart("..")).toBe("_");
    expect(fileNamePart(".env")).toBe("env");
    expect(fileNamePart("x".repeat(500))).toHaveLength(80);
  });

  it("refuses a placeholder that names nothing, listing what it may name", () => {
    expect(outputTemplateProblem("out/{row}.mp4", DECLARATIONS)).toBe("names {row}, which is not {index}, {ext} or a declared variable ({name}, {size})");
    expect(outputTemplateProblem("out/{index}-{name}.{ext}", DECLARATIONS)).toBeUndefined();
  });

  it("finds the first two rows that would write the same file", () => {
    expect(sharedOutput(["a.mp4", "b.mp4", "A.mp4", "b.mp4"])).toEqual({ first: 2, second: 4, output: "b.mp4" });
    expect(sharedOutput(["a.mp4", "A.mp4"], (output) => output.toLowerCase())).toEqual({ first: 1, second: 2, output: "A.mp4" });
    expect(sharedOutput(["a.mp4", "b.mp4"])).toBeUndefined();
  });
});
