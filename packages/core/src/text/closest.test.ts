import { describe, expect, it } from "vitest";
import { closestMatch } from "./closest.js";

describe("closestMatch", () => {
  it.each([
    ["titel", ["title", "subtitle", "color"], "title"],
    ["Title", ["title"], "title"],
    ["colour", ["color", "title"], "color"],
    ["backgroundColour", ["backgroundColor", "textColor"], "backgroundColor"],
    ["speed", ["sped", "speedy"], "sped"],
    ["x", ["y"], "y"],
    ["banana", ["title", "color"], undefined],
    ["ab", ["xyz"], undefined],
    ["anything", [], undefined],
  ])("%s among %j is %s", (word, candidates, expected) => {
    expect(closestMatch(word, candidates)).toBe(expected);
  });
});
