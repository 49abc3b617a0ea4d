import { describe, expect, it } from "vitest";
import { createLineIndex } from "./line-index.js";

describe("createLineIndex", () => {
  it.each([
    ["abc", 0, 1, 1],
    ["abc", 2, 1, 3],
    ["ab\ncd", 3, 2, 1],
    ["ab\ncd", 4, 2, 2],
    ["ab\r\ncd", 4, 2, 1],
    ["ab\rcd", 3, 2, 1],
    ["a\n\n\nb", 4, 4, 1],
  ])("maps %j offset %i to %i:%i", (text, offset, line, column) => {
    expect(createLineIndex(text)(offset)).toEqual({ line, column });
  });
});
