/**
 * Sub-compositions nested deeper than the browser's protocol can carry a document tree in one
 * message: the render asks for no whole tree, so any depth renders.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/** Each level embeds the next: past 25 or so, the whole document tree was too deep for one protocol message. */
const LEVELS = 40;

let project: TempProject;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let level = 0; level <= LEVELS; level++) {
    const next =
      level < LEVELS
        ? `<div data-composition-id="level${level + 1}" data-composition-src="level${level + 1}.html" data-start="0"></div>`
        : "<p>the deepest</p>";
    files[level === 0 ? "index.html" : `level${level}.html`] = compositionHtml({ id: `level${level}`, duration: 0.1, backdrop: "#204080", body: next });
  }
  project = await createProject(files);
});

afterAll(() => project?.remove());

describe(`sub-compositions nested ${LEVELS} deep`, () => {
  it("render", async () => {
    const result = await render([project.dir, "-o", project.path("out.mp4"), "--quality", "draft", "--workers", "1"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/CBOR|internal-error/);
  }, 120_000);
});
