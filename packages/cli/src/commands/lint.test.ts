import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LINT_CODES } from "@compose/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/compose.js", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../../examples/hello", import.meta.url));
const DOCS = new URL("../../../../docs/lint.md", import.meta.url);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dir: string;

/** Runs the built CLI in the fixture directory, so paths in its output are relative to it. */
function compose(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr });
    });
  });
}

const ROOT = 'data-composition-id="main" data-width="320" data-height="180"';
const page = (body: string, htmlAttributes = "", root = ROOT): string =>
  `<!doctype html>\n<html${htmlAttributes}>\n<body>\n<div ${root}>\n${body}\n</div>\n</body>\n</html>\n`;

const FIXTURES: Record<string, string | Buffer> = {
  "clean/index.html": page('<p id="a" data-start="0" data-duration="1" data-track-index="0"></p>'),
  "project/index.html": page(
    [
      `<div data-composition-id="one" data-composition-src="card.html" data-start="0" data-track-index="1" data-variable-values='{"title": 5}'></div>`,
      `<div data-composition-id="two" data-composition-src="scenes/outro.html" data-start="one" data-track-index="2"></div>`,
    ].join("\n"),
  ),
  "project/card.html": `<template id="card">\n  <div data-composition-id="card" data-width="320" data-height="180" data-duration="2"\n       data-composition-variables='[{"id": "title", "type": "string", "label": "Title", "default": "Hi"}]'>\n    <img src="data:image/png;base64,iVBORw0KGgo=" data-start="0" data-duration="2">\n  </div>\n</template>\n`,
  "project/scenes/outro.html": page(
    `<p id="end" data-start="0" data-duration="1"></p>`,
    ` data-composition-variables='[{"id": "size", "type": "number", "label": "Size", "default": 9, "max": 4}]'`,
  ),
  "warnings/index.html": page('<img src="data:image/gif;base64,R0lGOD" data-start="0" data-duration="1">'),
  "cycle/index.html": page('<div data-composition-id="a" data-composition-src="a.html"></div>'),
  "cycle/a.html": page('<div data-composition-id="b" data-composition-src="b.html"></div>'),
  "cycle/b.html": page('<div data-composition-id="c" data-composition-src="a.html"></div>'),
  "binary-child/index.html": page('<div data-composition-id="a" data-composition-src="card.html"></div>'),
  "binary-child/card.html": Buffer.from([0x3c, 0x00, 0x01, 0x02]),
  "binary.html": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x00, 0x0d]),
  "not-a-composition.html": "<!doctype html><title>hi</title><p>Just a page.</p>\n",
  "no-index/readme.txt": "nothing here",
};

beforeAll(async () => {
  if (!existsSync(BIN.replace(/bin\/compose\.js$/, "dist/bundle/main.js"))) {
    throw new Error("the CLI is not built: run npm run build first");
  }
  dir = await mkdtemp(join(tmpdir(), "compose-lint-"));
  for (const [path, content] of Object.entries(FIXTURES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe.concurrent("compose lint", () => {
  it("passes the bundled example", async () => {
    const run = await compose("lint", EXAMPLE);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(/^0 errors, 0 warnings in 1 file\n$/);
  });

  it("lints the index.html of the current directory by default", async () => {
    const run = await compose("lint");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: . is a directory without an index.html; give a composition directory (with an index.html) or an HTML file\n");
  });

  it("checks the entry and every embedded composition, one line per finding", async () => {
    const run = await compose("lint", "project");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n")).toEqual([
      'project/index.html:5:101  error  variable-values-type-mismatch  host "one" (card.html): "title" must be a string, got 5',
      "project/card.html:4:10  warning  inline-media  <img> src is an inline data: URL (1 KiB); pass the file as a URL reference instead",
      'project/scenes/outro.html:2:36  error  variable-default-mismatch  variable "size": default 9 is above max 4',
      "2 errors, 1 warning in 3 files",
      "",
    ]);
  });

  it("prints the findings as JSON with --json", async () => {
    const run = await compose("lint", "project", "--json");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { files: string[]; errors: number; warnings: number; findings: Array<Record<string, unknown>> };
    expect(report.files).toEqual(["project/index.html", "project/card.html", "project/scenes/outro.html"]);
    expect(report).toMatchObject({ errors: 2, warnings: 1 });
    expect(report.findings[2]).toEqual({
      file: "project/scenes/outro.html",
      line: 2,
      column: 36,
      severity: "error",
      code: "variable-default-mismatch",
      message: 'variable "size": default 9 is above max 4',
    });
  });

  it("exits 0 when there are only warnings", async () => {
    const run = await compose("lint", "warnings");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("warnings/index.html:5:6  warning  inline-media");
    expect(run.stdout).toContain("0 errors, 1 warning in 1 file");
  });

  it("lints a single file given by path", async () => {
    const run = await compose("lint", "project/scenes/outro.html");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("1 error, 0 warnings in 1 file");
  });

  it("names the chain of files in a cycle", async () => {
    const run = await compose("lint", "cycle");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'cycle/b.html:5:1  error  sub-composition-cycle  host "c" embeds "a.html", which embeds itself: cycle/a.html -> cycle/b.html -> cycle/a.html',
    );
  });

  it("reports a binary sub-composition as a finding of its host", async () => {
    const run = await compose("lint", "binary-child");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'binary-child/index.html:5:1  error  sub-composition-unreadable  host "a" embeds "card.html", which cannot be read: binary-child/card.html is a binary file (it contains NUL bytes), not an HTML composition',
    );
    expect(run.stdout).toContain("1 error, 0 warnings in 1 file");
  });

  it("reports HTML that is not a composition as a lint error", async () => {
    const run = await compose("lint", "not-a-composition.html");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      "not-a-composition.html:1:1  error  no-composition-root  not a composition: no element has data-composition-id with data-width and data-height\n1 error, 0 warnings in 1 file\n",
    );
  });

  it.each([
    ["missing", ["lint", "nowhere"], "error: nowhere does not exist; give a composition directory (with an index.html) or an HTML file\n"],
    [
      "no index.html",
      ["lint", "no-index"],
      "error: no-index is a directory without an index.html; give a composition directory (with an index.html) or an HTML file\n",
    ],
    ["binary", ["lint", "binary.html"], "error: binary.html is a binary file (it contains NUL bytes), not an HTML composition\n"],
    ["unknown option", ["lint", "clean", "--fix"], "error: unknown option '--fix'\n"],
  ])("refuses a %s path or flag with one line and exit 2", async (_, args, stderr) => {
    const run = await compose(...args);
    expect(run).toEqual({ code: 2, stdout: "", stderr });
  });

  it("lints a 10 MB file quickly, without hanging", async () => {
    const clips = Array.from({ length: 5_000 }, (_, i) => `<p id="c${i}" data-start="${i}" data-duration="1" data-track-index="0">clip ${i}</p>`).join("\n");
    const padding = "A".repeat(10 * 1024 * 1024 - clips.length);
    await writeFile(join(dir, "huge.html"), page(`${clips}\n<img src="data:image/png;base64,${padding}" data-start="0">`));
    const started = Date.now();
    const run = await compose("lint", "huge.html");
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "huge.html:5005:6  warning  inline-media  <img> src is an inline data: URL (9829 KiB); pass the file as a URL reference instead\n0 errors, 1 warning in 1 file\n",
    );
  });
});

describe("docs/lint.md", () => {
  it("documents every lint code with its severity", async () => {
    const docs = await readFile(DOCS, "utf8");
    const documented = [...docs.matchAll(/^\| `([a-z-]+)` \| (error|warning) \|/gm)].map((match) => [match[1], match[2]]);
    expect(Object.fromEntries(documented)).toEqual(LINT_CODES);
  });
});
