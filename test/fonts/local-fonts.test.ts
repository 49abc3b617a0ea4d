/**
 * Named families resolve offline from the project's own font packages: with
 * node_modules/@fontsource/space-mono in the project and `--network none`, a Google Fonts <link>,
 * a CSS @import of one, a bare `font-family` and a sub-composition instance all draw the text with
 * the package's bold face, exactly as an @font-face naming that very file does. A family the
 * project lacks is refused with the command that adds it.
 */
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const LINK = "https://fonts.googleapis.com/css2?family=Space+Mono:wght@700&display=swap";
const TEXT = `<div style="position:absolute;left:10px;top:60px;font:700 40px 'Space Mono', serif;color:#000">Ag Mono</div>`;

let project: TempProject;
const runs = new Map<string, CliResult>();

function composition(spec: { css?: string; head?: string; body?: string }): string {
  return compositionHtml({ id: "main", duration: 0.1, backdrop: "#ffffff", body: TEXT, ...spec });
}

beforeAll(async () => {
  project = await createProject({
    "reference.html": composition({
      css: `@font-face { font-family: "Space Mono"; font-weight: 700; src: url(node_modules/@fontsource/space-mono/files/space-mono-latin-700-normal.woff2); }`,
    }),
    "link.html": composition({ head: `<link rel="stylesheet" href="${LINK}">` }),
    "import.html": composition({ head: `<style>@import url("${LINK}");</style>` }),
    "named.html": composition({}),
    "instance.html": compositionHtml({
      id: "main",
      duration: 0.1,
      backdrop: "#ffffff",
      body: `<div data-composition-id="card" data-composition-src="card.html" data-start="0" data-duration="0.1" style="position:absolute;left:0;top:0;width:320px;height:180px"></div>`,
    }),
    "card.html": compositionHtml({ id: "card", duration: 0.1, head: `<link rel="stylesheet" href="${LINK}">`, body: TEXT }),
    "missing.html": composition({
      head: `<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Lobster">`,
      body: TEXT.replace("'Space Mono'", "Lobster"),
    }),
  });
  await cp(join(REPO_ROOT, "node_modules/@fontsource/space-mono"), project.path("node_modules/@fontsource/space-mono"), { recursive: true });
  await limited(
    2,
    ["reference", "link", "import", "named", "instance", "missing"].map((name) => async () => {
      runs.set(
        name,
        await render([project.path(`${name}.html`), "--format", "png-sequence", "--output", project.path("out", name), "--workers", "1", "--network", "none"]),
      );
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
});

async function frame(name: string): Promise<Buffer> {
  const run = runs.get(name)!;
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toMatch(/network-refused|font-fallback/);
  return PNG.sync.read(await readFile(project.path("out", name, "frame_000000.png"))).data;
}

describe("a family from the project's font packages, offline", () => {
  it.each(["link", "import", "named", "instance"])("draws the package's face for a %s", async (name) => {
    const [reference, drawn] = [await frame("reference"), await frame(name)];
    expect(Buffer.compare(drawn, reference)).toBe(0);
  });

  it("refuses a family the project lacks, naming the command that adds it", async () => {
    const run = runs.get("missing")!;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("compose fonts add lobster");
    const fallback = PNG.sync.read(await readFile(project.path("out", "missing", "frame_000000.png"))).data;
    expect(Buffer.compare(fallback, await frame("reference"))).not.toBe(0);
  });
});
