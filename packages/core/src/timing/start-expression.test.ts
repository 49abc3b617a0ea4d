import { describe, expect, it } from "vitest";
import { parseStartExpression } from "./start-expression.js";

describe("parseStartExpression", () => {
  it.each([
    ["0", { kind: "seconds", seconds: 0 }],
    ["2.5", { kind: "seconds", seconds: 2.5 }],
    [" .5 ", { kind: "seconds", seconds: 0.5 }],
    ["-1", { kind: "seconds", seconds: -1 }],
    ["intro", { kind: "relative", ref: "intro", offset: 0 }],
    ["intro + 1.5", { kind: "relative", ref: "intro", offset: 1.5 }],
    ["intro - 0.5", { kind: "relative", ref: "intro", offset: -0.5 }],
    ["intro+2", { kind: "relative", ref: "intro", offset: 2 }],
    ["intro-2", { kind: "relative", ref: "intro-2", offset: 0 }],
    ["intro-2 - 1", { kind: "relative", ref: "intro-2", offset: -1 }],
    ["scene_1 -3", { kind: "relative", ref: "scene_1", offset: -3 }],
  ])("parses %j", (text, expected) => {
    expect(parseStartExpression(text)).toEqual(expected);
  });

  it.each(["", "   ", "1s", "1e3", "intro + ", "intro * 2", "+ 1", "2intro", "intro + -1", "a b"])("rejects %j", (text) => {
    const result = parseStartExpression(text);
    expect(result).toHaveProperty("error");
    expect((result as { error: string }).error).toContain(`data-start ${JSON.stringify(text)} is not a start time`);
  });

  it("keeps the message short for a huge attribute", () => {
    const result = parseStartExpression("x".repeat(1_000_000) + "!") as { error: string };
    expect(result.error.length).toBeLessThan(250);
  });
});
