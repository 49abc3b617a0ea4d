/**
 * A wrong render never passes silently: a script error in an instance or an iframe fails the render
 * with the file, line and message, and a render whose every frame is one flat colour ends with a
 * warning naming the likely cause.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

function stage(id: string, inner: string, style = "background:#102030"): string {
  return `<!doctype html><html><body><div id="stage" style="${style}" data-composition-id="${id}" data-width="320" data-height="180" data-duration="0.1">${inner}</div></body></html>`;
}

const THROWS = `<!doctype html><html><body>
<div data-composition-id="part" data-width="100" data-height="100"></div>
<script>
  undefinedHelper();
</script></body></html>`;

let project: TempProject;
beforeAll(async () => {
  project = await createProject({
    "instance.html": stage("instance", `<div data-composition-id="p1" data-composition-src="parts/part.html"></div>`),
    "parts/part.html": THROWS,
    "iframe.html": stage("iframe", `<iframe src="parts/frame.html" width="100" height="100"></iframe>`),
    "parts/frame.html": `<!doctype html><html><body><p>frame</p>\n<script>\n  null.width;\n</script></body></html>`,
    "zero.html": stage("zero", "<p>text</p>", "background:#102030;height:0;overflow:hidden"),
    "hidden.html": stage("hidden", "<p>text</p>", "background:#102030;visibility:hidden"),
  });
});
afterAll(() => project?.remove());

describe("script errors anywhere fail the render", () => {
  it.each([
    ["instance", "page script error: Uncaught ReferenceError: undefinedHelper is not defined (parts/part.html:4:3)"],
    ["iframe", "page script error: Uncaught TypeError: Cannot read properties of null (reading 'width') (parts/frame.html:3:8)"],
  ])("an error in a script of an %s", async (name, message) => {
    const output = project.path(`${name}.mp4`);
    const result = await render([project.path(`${name}.html`), "--output", output]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([`error: ${message}`]);
    expect(existsSync(output)).toBe(false);
  });
});

describe("a render of one flat colour", () => {
  it.each([
    ["zero", "the composition element is 320x0 px: its CSS gives it no size (remove it; data-width / data-height size the element)"],
    ["hidden", "the composition element is hidden by display, visibility or opacity"],
  ])("%s: ends with a warning naming the likely cause", async (name, cause) => {
    const result = await render([project.path(`${name}.html`), "--quiet", "--output", project.path(`${name}.mp4`)]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr).at(-1)).toBe(`warning: [flat-frames] every frame is the same flat colour: ${cause}`);
  });
});
