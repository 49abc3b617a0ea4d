import { describe, expect, it } from "vitest";
import { createSubCompositionResolver } from "./resolve-sub-composition.js";

describe("createSubCompositionResolver", () => {
  const resolve = createSubCompositionResolver("promo");

  it.each([
    ["promo/index.html", "card.html", "promo/card.html"],
    ["promo/scenes/intro.html", "../card.html", "promo/card.html"],
    ["promo/scenes/intro.html", "/shared/card.html", "promo/shared/card.html"],
    ["promo/index.html", "my%20card.html?v=2#top", "promo/my card.html"],
    ["promo/index.html", "bad%zzescape.html", "promo/bad%zzescape.html"],
    ["index.html", "card.html", "card.html"],
  ])("from %s, %s is %s", (from, src, expected) => {
    expect(resolve(from, src)).toBe(expected);
  });

  it("keeps root-relative paths relative to the current directory when the project is it", () => {
    expect(createSubCompositionResolver(".")("index.html", "/card.html")).toBe("card.html");
  });
});
