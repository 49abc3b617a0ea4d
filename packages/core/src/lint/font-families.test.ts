import { describe, expect, it } from "vitest";
import { lintComposition } from "./lint-composition.js";

const KNOWN = new Set(["inter", "arial", "dejavu sans", "brand"]);
const knownFontFamily = (family: string) => KNOWN.has(family.toLowerCase());

function fontFindings(html: string, known: ((family: string) => boolean) | null = knownFontFamily) {
  return lintComposition(html, { file: "index.html", knownFontFamily: known ?? undefined })
    .filter((finding) => finding.code === "font-family-unknown")
    .map(({ line, column, severity, message }) => ({ line, column, severity, family: /"([^"]+)"/.exec(message)?.[1] }));
}

const page = (css: string, body = "") => `<html><head><style>
${css}
</style></head><body><div data-composition-id="main" data-width="320" data-height="180" data-duration="1">${body}</div></body></html>`;

describe("font-family-unknown", () => {
  it("warns of each family nobody has, at the place it is named, once", () => {
    expect(
      fontFindings(
        page(
          `h1 { font-family: "Space Grotesk", Inter, sans-serif; }\np { font: italic 700 20px/1.2 Montserrat, serif; }\nh2 { font-family: 'Space Grotesk'; }`,
        ),
      ),
    ).toEqual([
      { line: 2, column: 20, severity: "warning", family: "Space Grotesk" },
      { line: 3, column: 31, severity: "warning", family: "Montserrat" },
    ]);
  });

  it("reads style attributes", () => {
    expect(fontFindings(page("", `<p style="font-family: Lobster, cursive">x</p>`))).toMatchObject([{ family: "Lobster" }]);
  });

  it("says nothing of known families, generic names, CSS-wide keywords or var()", () => {
    expect(
      fontFindings(
        page(
          `a { font-family: Inter, 'DejaVu Sans', Brand, system-ui, ui-monospace, -webkit-body; }\nb { font-family: inherit; }\nc { font-family: var(--font), Nobody; }`,
        ),
      ),
    ).toEqual([]);
  });

  it("does not run when the caller does not know the fonts", () => {
    expect(fontFindings(page(`h1 { font-family: Nobody; }`), null)).toEqual([]);
  });
});
