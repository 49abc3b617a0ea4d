import { describe, expect, it } from "vitest";
import { lintProject } from "./lint-project.js";
import { composition, lintFiles } from "./lint.test-helpers.js";

const CARD = composition('<p id="line" data-start="0" data-duration="1.5"></p>', {
  variables: '[{"id": "title", "type": "string", "label": "Title", "default": "Card"}]',
  root: 'data-composition-id="card" data-width="320" data-height="180"',
});

describe("lintProject", () => {
  it("asks a duration of the entry only: an embedded file takes its host's", async () => {
    const still = composition("<p>still</p>", { root: 'data-composition-id="still" data-width="320" data-height="180"' });
    expect(
      await lintFiles({
        "index.html": composition('<div data-composition-id="s" data-composition-src="still.html" data-duration="1"></div>'),
        "still.html": still,
      }),
    ).toEqual([]);
    expect((await lintFiles({ "index.html": still })).map((finding) => finding.code)).toEqual(["no-duration"]);
  });

  it("validates host values against the embedded composition's declarations", async () => {
    const findings = await lintFiles({
      "index.html": composition(
        `<div data-composition-id="card1" data-composition-src="card.html" data-variable-values='{"title": 3, "subtitle": "x"}'></div>`,
      ),
      "card.html": CARD,
    });
    expect(findings).toEqual([
      {
        file: "index.html",
        line: 5,
        column: 67,
        severity: "error",
        code: "variable-values-type-mismatch",
        message: 'host "card1" (card.html): "title" must be a string, got 3',
      },
      {
        file: "index.html",
        line: 5,
        column: 67,
        severity: "warning",
        code: "variable-values-undeclared",
        message: 'host "card1" (card.html): "subtitle" is not a declared variable (declared: title); ignored',
      },
    ]);
  });

  it("takes a host's duration from the composition it embeds", async () => {
    const findings = await lintFiles({
      "index.html": composition(
        [
          '<div data-composition-id="card1" data-composition-src="card.html" data-track-index="1"></div>',
          '<p id="after" data-start="card1 - 1" data-duration="1" data-track-index="1"></p>',
        ].join("\n"),
      ),
      "card.html": CARD,
    });
    expect(findings.map((finding) => finding.message)).toEqual([
      '"after" (0.5-1.5 s) overlaps "card1" (0-1.5 s) on track 1; clips on one track must not overlap',
    ]);
  });

  it("lints a file embedded many times once, and files in subfolders relative to their parent", async () => {
    const loads: string[] = [];
    const files: Record<string, string> = {
      "index.html": composition(
        [
          '<div data-composition-id="a" data-composition-src="scenes/scene.html"></div>',
          '<div data-composition-id="b" data-composition-src="scenes/scene.html"></div>',
        ].join("\n"),
      ),
      "scenes/scene.html": composition('<div data-composition-id="c" data-composition-src="../card.html"></div><p data-start="x!"></p>'),
      "card.html": CARD,
    };
    const findings = await lintProject(
      "index.html",
      async (path) => {
        loads.push(path);
        return files[path];
      },
      (from, src) => {
        const parts = [...from.split("/").slice(0, -1), ...src.split("/")];
        return parts.reduce<string[]>((path, part) => (part === ".." ? path.slice(0, -1) : [...path, part]), []).join("/");
      },
    );
    expect(loads).toEqual(["index.html", "scenes/scene.html", "card.html"]);
    expect(findings.map(({ file, code }) => `${file} ${code}`)).toEqual(["scenes/scene.html timing-bad-start"]);
  });

  it("names the whole chain of a cycle", async () => {
    const findings = await lintFiles({
      "index.html": composition('<div data-composition-id="a" data-composition-src="a.html"></div>'),
      "a.html": composition('<div data-composition-id="b" data-composition-src="b.html"></div>'),
      "b.html": composition('<div data-composition-id="again" data-composition-src="a.html"></div>'),
    });
    expect(findings).toEqual([
      {
        file: "b.html",
        line: 5,
        column: 1,
        severity: "error",
        code: "sub-composition-cycle",
        message: 'host "again" embeds "a.html", which embeds itself: a.html -> b.html -> a.html',
      },
    ]);
  });

  it("names the host and the path of a missing file, for every host that embeds it", async () => {
    const findings = await lintFiles({
      "index.html": composition(
        [
          '<div data-composition-id="one" data-composition-src="gone.html"></div>',
          '<div data-composition-id="two" data-composition-src="gone.html"></div>',
        ].join("\n"),
      ),
    });
    expect(findings.map((finding) => finding.message)).toEqual([
      'host "one" embeds "gone.html", which does not exist (gone.html)',
      'host "two" embeds "gone.html", which does not exist (gone.html)',
    ]);
  });

  it("reports an unreadable file with the loader's reason", async () => {
    const findings = await lintFiles({
      "index.html": composition('<div data-composition-id="one" data-composition-src="bin.html"></div>'),
      "bin.html": new Error("bin.html contains NUL bytes; it is not a text file"),
    });
    expect(findings.map((finding) => finding.message)).toEqual([
      'host "one" embeds "bin.html", which cannot be read: bin.html contains NUL bytes; it is not a text file',
    ]);
  });

  it("lists the entry's findings first", async () => {
    const findings = await lintFiles({
      "index.html": composition('<div data-composition-id="a" data-composition-src="a.html"></div>\n<p data-start="?"></p>'),
      "a.html": composition('<p data-start="?"></p>'),
    });
    expect(findings.map((finding) => finding.file)).toEqual(["index.html", "a.html"]);
  });

  it("rejects when the entry does not exist", async () => {
    await expect(lintFiles({}, "index.html")).rejects.toThrow("composition file not found: index.html");
  });
});
