/**
 * What the render's browser cannot give or may not load is named for what it is: a page that asks
 * for WebGPU gets a warning naming it; a file the project rules refuse (a symbolic link out of the
 * project, a dotfile) is named with the rule, not as a 404.
 */
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

function stage(id: string, inner: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>
<div data-composition-id="${id}" data-width="320" data-height="180" data-duration="0.1" style="background:#123">${inner}</div>
</body></html>`;
}

const ADDS_LINK = (href: string) =>
  `<script>const link = document.createElement("link"); link.rel = "stylesheet"; link.href = "${href}"; document.head.append(link);</script>`;

let project: TempProject;
let outside: TempProject;
beforeAll(async () => {
  outside = await createProject({ "shared.css": "p { color: red }" });
  project = await createProject({
    "gpu.html": stage("gpu", "<p>x</p><script>__compose.waitFor((async () => navigator.gpu && (await navigator.gpu.requestAdapter()))());</script>"),
    "linked.html": stage("linked", "<p>x</p>", '<link rel="stylesheet" href="css/shared.css">'),
    "scripted.html": stage("scripted", "<p>x</p>", ADDS_LINK("css/shared.css")),
    "hidden.html": stage("hidden", "<p>x</p>", ADDS_LINK(".private/style.css")),
    ".private/style.css": "p { color: blue }",
  });
  await mkdir(join(project.dir, "css"));
  await symlink(join(outside.dir, "shared.css"), join(project.dir, "css", "shared.css"));
});
afterAll(async () => {
  await project?.remove();
  await outside?.remove();
});

const LEADS_OUT = "is a symbolic link that leads out of the project; only regular files inside the project are read";
const DOTFILE = "is a dotfile or inside a dot-directory; only regular files inside the project are read";

describe("what the render's browser cannot give", () => {
  it("a page that asks for WebGPU gets a warning naming it", async () => {
    const result = await render([project.path("gpu.html"), "--quiet", "--output", project.path("gpu.mp4")]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toContain(
      "warning: [graphics-unavailable] the page asked for WebGPU (navigator.gpu.requestAdapter() answered null), which the render's browser cannot give: what the page draws with it stays blank; draw with canvas 2D or WebGL instead",
    );
  });
});

describe("a file the project rules refuse", () => {
  it("named in the markup: refused before the browser starts, with the rule", async () => {
    const result = await render([project.path("linked.html"), "--output", project.path("linked.mp4")]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `error: [missing-asset] <link> stylesheet "css/shared.css": the file ${LEADS_OUT} (linked.html:1:51); fix the reference, or render with --allow-missing-assets to go ahead without it`,
    ]);
  });

  it.each([
    ["scripted", "css/shared.css", LEADS_OUT],
    ["hidden", ".private/style.css", DOTFILE],
  ])("%s: loaded by a script, named with the rule, not as a 404", async (name, path, rule) => {
    const result = await render([project.path(`${name}.html`), "--output", project.path(`${name}.mp4`)]);
    expect(result.code).toBe(1);
    const [line] = lines(result.stderr);
    expect(line).toMatch(
      new RegExp(
        `^error: stylesheet ${path.replace(/\./g, "\\.")} failed to load \\(it ${rule.replace(/[.()]/g, "\\$&")}, requested by ${name}\\.html:1\\); copy the file into the project`,
      ),
    );
    expect(line).not.toContain("404");
  });
});
