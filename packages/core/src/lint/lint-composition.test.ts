import { describe, expect, it } from "vitest";
import { lintComposition } from "./lint-composition.js";
import { composition } from "./lint.test-helpers.js";

describe("lintComposition", () => {
  it("passes the bundled example style of composition", () => {
    const html = composition('<div id="badge" data-start="1" data-duration="2" data-track-index="1"></div>', {
      variables: '[{"id": "title", "type": "string", "label": "Title", "default": "Hi"}]',
    });
    expect(lintComposition(html, { file: "index.html" })).toEqual([]);
  });

  it("places a JSON syntax error at its line and column in the file", () => {
    const html = `<!doctype html>\n<html data-composition-variables='[\n  {"id": "a", "type": "string", "label": "A", "default": "x"},\n  {"id": "b", "type": "string" "label": "B"}\n]'>\n<body><div data-composition-id="m" data-width="2" data-height="2" data-duration="1"></div></body></html>`;
    expect(lintComposition(html, { file: "dir/index.html" })).toEqual([
      {
        file: "dir/index.html",
        line: 4,
        column: 32,
        severity: "error",
        code: "variables-invalid-json",
        message: "data-composition-variables is not valid JSON: expected ',' or '}' after a property value but found '\"'",
      },
    ]);
  });

  it("points at an apostrophe that ends a '-quoted attribute early, and says how to write it", () => {
    const html = `<html data-composition-variables='[{"id": "t", "type": "string", "label": "Today's title", "default": "x"}]'>\n<body><div data-composition-id="m" data-width="2" data-height="2" data-duration="1"></div></body></html>`;
    const [finding] = lintComposition(html, { file: "index.html" });
    expect(finding).toMatchObject({ line: 1, column: html.indexOf("'s title") + 1, code: "variables-invalid-json" });
    expect(finding!.message).toBe(
      `data-composition-variables is not valid JSON: unterminated string; the attribute ends at this ', before "s title", "d": a ' inside a '…'-quoted attribute ends it, so write it as &#39; (or a typographic ’)`,
    );
  });

  it("names a bare double quote inside a JSON string", () => {
    const html = `<html data-composition-variables='[{"id": "t", "type": "string", "label": "A "big" day", "default": "x"}]'>\n<body><div data-composition-id="m" data-width="2" data-height="2" data-duration="1"></div></body></html>`;
    const [finding] = lintComposition(html, { file: "index.html" });
    expect(finding).toMatchObject({ line: 1, column: html.indexOf('big"') + 1, code: "variables-invalid-json" });
    expect(finding!.message).toMatch(/found 'b'; a " inside a JSON string ends the string, so write it as \\" \(or “ ”\)$/);
  });

  it("places a declaration finding at the declaration, sorted with the others by position", () => {
    const html = `<html data-composition-variables='[\n  {"id": "a", "type": "string", "label": "A", "default": "x"},\n  {"id": "b", "type": "colour", "label": "B", "default": "x"}\n]'>\n<body>\n<div data-composition-id="m" data-width="2" data-height="2" data-duration="1">\n  <p id="p" data-start="q"></p>\n</div></body></html>`;
    expect(lintComposition(html, { file: "index.html" })).toEqual([
      {
        file: "index.html",
        line: 3,
        column: 3,
        severity: "error",
        code: "variable-unknown-type",
        message: 'variable "b": type "colour" is not one of string, number, color, boolean, enum',
      },
      {
        file: "index.html",
        line: 7,
        column: 13,
        severity: "error",
        code: "timing-unknown-reference",
        message: '"p" starts after "q", but no timed element has that id',
      },
    ]);
  });

  it("falls back to the attribute when the value uses character references", () => {
    const html = `<html data-composition-variables="[{&quot;id&quot;: 1}]"><body><div data-composition-id="m" data-width="2" data-height="2" data-duration="1"></div></body></html>`;
    const findings = lintComposition(html, { file: "index.html" });
    expect(findings.map(({ line, column, code }) => ({ line, column, code }))).toContainEqual({ line: 1, column: 7, code: "variable-invalid-field" });
  });

  it("places a data-variable-values syntax error inside the host's attribute", () => {
    const html = composition(`<div data-composition-id="c1" data-composition-src="card.html"\n     data-variable-values='{"title": "One",\n "x": }'></div>`);
    expect(lintComposition(html, { file: "index.html" })).toEqual([
      {
        file: "index.html",
        line: 7,
        column: 7,
        severity: "error",
        code: "variable-values-invalid-json",
        message: `host "c1": data-variable-values is not valid JSON: expected a value but found '}'`,
      },
    ]);
  });

  it("names both clips and their times when they overlap on a track", () => {
    const html = composition(
      ['<p id="a" data-start="0" data-duration="2" data-track-index="3"></p>', '<p id="b" data-start="1.5" data-duration="1" data-track-index="3"></p>'].join(
        "\n",
      ),
    );
    expect(lintComposition(html, { file: "index.html" })).toEqual([
      {
        file: "index.html",
        line: 6,
        column: 1,
        severity: "warning",
        code: "track-overlap",
        message: '"b" (1.5-2.5 s) overlaps "a" (0-2 s) on track 3; clips on one track must not overlap',
      },
    ]);
  });

  it("cannot know the length of an embedded composition on its own, so a reference to the host is an error", () => {
    const html = composition(['<div data-composition-id="c1" data-composition-src="card.html"></div>', '<p id="after" data-start="c1"></p>'].join("\n"));
    expect(lintComposition(html, { file: "index.html" }).map((finding) => finding.code)).toEqual(["timing-reference-without-duration"]);
  });

  it("stays linear on large inputs that would expose quadratic checks", () => {
    const count = 20_000;
    const clips = Array.from(
      { length: count },
      (_, i) => `<p id="c${i}" data-start="${i === 0 ? 0 : `c${i - 1} - 0.5`}" data-duration="1" data-track-index="1"></p>`,
    );
    const declarations = JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: `v${i}`, type: "number", label: "V", default: "x" })));
    const html = composition(clips.join("\n"), { variables: declarations });
    const started = performance.now();
    const findings = lintComposition(html, { file: "big.html" });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(findings.filter((finding) => finding.code === "track-overlap")).toHaveLength(count - 1);
    expect(findings.filter((finding) => finding.code === "variable-default-mismatch")).toHaveLength(count);
    expect(findings.at(-1)?.line).toBe(count + 4);
  });
});
