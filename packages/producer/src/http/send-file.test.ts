import { describe, expect, it } from "vitest";
import { parseRange } from "./send-file.js";

describe("parseRange", () => {
  it.each([
    ["bytes=0-99", { start: 0, end: 99 }],
    ["bytes=100-", { start: 100, end: 999 }],
    ["bytes=-10", { start: 990, end: 999 }],
    ["bytes=-5000", { start: 0, end: 999 }],
    ["bytes=900-5000", { start: 900, end: 999 }],
    ["bytes=1000-", "unsatisfiable"],
    ["bytes=-0", "unsatisfiable"],
    // Ignored, so the whole file is sent: malformed, reversed, or several ranges.
    ["bytes=50-10", undefined],
    ["bytes=0-1,5-9", undefined],
    ["items=0-1", undefined],
    ["bytes=-", undefined],
    [undefined, undefined],
  ])("%s of 1000 bytes -> %j", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });

  it("finds nothing to send in an empty file", () => {
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
  });
});
