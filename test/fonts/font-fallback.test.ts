/**
 * No silent substitution: each family the page's text asks for that no font of its name draws is
 * a font-fallback warning naming the family, the file and line that ask for it (a
 * sub-composition's own file for text in an instance) and the font drawn instead. Families that
 * resolve (generic names, the default set's names, a family of the system) are not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
let run: CliResult;

beforeAll(async () => {
  project = await createProject({
    "index.html": compositionHtml({
      id: "main",
      duration: 0.1,
      css: `.title { font-family: Montserrat, sans-serif; }`,
      body: `<p class="title">Title</p>
<p style="font-family: Arial, 'Helvetica Neue', system-ui">Platform names</p>
<p style="font-family: 'DejaVu Sans'">A family of the system</p>
<div data-composition-id="card" data-composition-src="card.html" data-start="0" style="position:absolute;left:0;top:100px;width:320px;height:40px"></div>`,
    }),
    "card.html": compositionHtml({ id: "card", width: 320, height: 40, duration: 0.1, css: `p { font-family: "Space Grotesk", serif; }`, body: "<p>card</p>" }),
  });
  run = await render([project.path("index.html"), "--output", project.path("out.mp4"), "--workers", "1"]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
});

describe("font-fallback", () => {
  it("names each family that fell back, where it is asked for, and the font drawn instead", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      '[font-fallback] font family "Montserrat" (index.html:8) has no font, so its text is drawn with Inter: add it with compose fonts add montserrat',
    );
    expect(run.stderr).toContain('[font-fallback] font family "Space Grotesk" (card.html:8) has no font, so its text is drawn with Tinos');
  });

  it("says nothing of families that resolve", () => {
    const warned = [...run.stderr.matchAll(/\[font-fallback\] font family "([^"]+)"/g)].map((match) => match[1]);
    expect(warned.sort()).toEqual(["Montserrat", "Space Grotesk"]);
  });
});
