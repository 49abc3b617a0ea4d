import { describe, expect, it } from "vitest";
import { cellValue, parseRecordList, recordColumns } from "./record-list.js";

describe("a JSON list of records", () => {
  it("is recognised only as a non-empty list of records of plain values", () => {
    expect(parseRecordList(`[{"label": "Jan", "value": 120}]`)).toEqual([{ label: "Jan", value: 120 }]);
    for (const text of ["[]", "[1, 2]", `{"a": 1}`, "not json", `[{"a": {"b": 1}}]`, 3]) expect(parseRecordList(text)).toBeUndefined();
  });

  it("has every key of every row as a column, in order of appearance", () => {
    expect(recordColumns([{ label: "a" }, { value: 1, label: "b" }])).toEqual(["label", "value"]);
  });

  it("keeps a numeric column numeric", () => {
    const rows = [{ label: "Jan", value: 120 }];
    expect(cellValue(rows, "value", "300")).toBe(300);
    expect(cellValue(rows, "value", "lots")).toBe("lots");
    expect(cellValue(rows, "label", "42")).toBe("42");
  });
});
