import { describe, expect, it } from "vitest";
import { plural } from "./plural.js";

describe("plural", () => {
  it("gives one thing its singular and other counts their plural, grouped by thousands", () => {
    expect(plural(1, "frame")).toBe("1 frame");
    expect(plural(0, "frame")).toBe("0 frames");
    expect(plural(14_990, "undeclared key")).toBe("14,990 undeclared keys");
    expect(plural(2, "match", "matches")).toBe("2 matches");
  });
});
