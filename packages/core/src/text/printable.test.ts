import { describe, expect, it } from "vitest";
import { printable } from "./printable.js";

describe("printable", () => {
  it("escapes terminal escapes, bells, line breaks and direction overrides; keeps other text", () => {
    expect(printable("a\u001b[31mred\u0007\nnext\u202eevil")).toBe("a\\x1b[31mred\\x07\\x0anext\\u202eevil");
    expect(printable("café — ✓ ok")).toBe("café — ✓ ok");
  });
});
