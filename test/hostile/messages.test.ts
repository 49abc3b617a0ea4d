/**
 * What users type and compositions declare reaches messages only as printable text, deep or
 * malformed variables get their own clear line, and each before any browser starts
 * (COMPOSE_BROWSER points at nothing: the runs that get past the checks end as browser-missing).
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, lines, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const NO_BROWSER = { COMPOSE_BROWSER: "/nonexistent/chromium-headless-shell" };
/** Any control character but the line feeds that end lines. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject({
    "plain/index.html": compositionHtml({ id: "plain", duration: 0.2 }),
    "malformed/index.html": compositionHtml({ id: "malformed", duration: 0.2 }).replace(
      "<html>",
      `<html data-composition-variables='[{"id": "title", "type": "string"'>`,
    ),
  });
  // Random bytes with every control character in them, and a brace so JSON.parse reads some of it.
  await writeFile(
    project.path("binary.json"),
    Buffer.concat([Buffer.from("{\u001b[2J\u0007"), randomBytes(256), Buffer.from(Array.from({ length: 32 }, (_, i) => i))]),
  );
  const deep = `{"x":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`;
  const out = (name: string) => ["--output", project.path("out", `${name}.mp4`)];
  await limited(3, [
    async () =>
      results.set(
        "escape name",
        await render([project.path("plain"), ...out("a"), "--variables-file", project.path("no\u001b[31msuch\u0007.json")], { env: NO_BROWSER }),
      ),
    async () =>
      results.set("binary file", await render([project.path("plain"), ...out("b"), "--variables-file", project.path("binary.json")], { env: NO_BROWSER })),
    async () => results.set("deep", await render([project.path("plain"), ...out("c"), "--variables", deep], { env: NO_BROWSER })),
    async () => results.set("malformed", await render([project.path("malformed"), ...out("d")], { env: NO_BROWSER })),
    async () => results.set("malformed strict", await render([project.path("malformed"), ...out("e"), "--strict-variables"], { env: NO_BROWSER })),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

describe("messages print only printable characters", () => {
  it("a --variables-file name with a terminal escape and a bell: the error shows them as \\x1b and \\x07", () => {
    const { stderr } = results.get("escape name")!;
    expect(stderr).not.toMatch(CONTROL);
    expect(stderr).toContain("no\\x1b[31msuch\\x07.json cannot be read (ENOENT)");
  });

  it("a binary --variables-file: one printable line", () => {
    const result = results.get("binary file")!;
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).not.toMatch(CONTROL);
    expect(result.stderr).toMatch(/--variables-file .*binary\.json is not valid JSON/);
  });
});

describe("variables", () => {
  it("nested 3000 deep: a usage error naming the nesting allowed, not a failure of the render", () => {
    const result = results.get("deep")!;
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^error: --variables must be a JSON object nested at most 32 levels deep \(line 1, column \d+\)$/),
    ]);
  });

  it.each(["malformed", "malformed strict"])(
    "%s data-composition-variables: refused before any browser starts with lint's code, naming the attribute",
    (name) => {
      const result = results.get(name)!;
      expect(result.code).toBe(1);
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(/^error: \[variables-invalid-json\] data-composition-variables is not valid JSON: .* \(index\.html:\d+:\d+\)$/),
      ]);
    },
  );
});
