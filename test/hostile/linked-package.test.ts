/**
 * A package in the project's node_modules that is a link to a folder outside the project is not
 * the project's: a CDN URL of it at its version is not answered from that folder, so a script
 * that fetches a file of it never gets the outside file, and the render names the refusal.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const SECRET = "OUTSIDE-SECRET";
const URL = "https://cdn.jsdelivr.net/npm/linkpkg@2.0.0/secret.txt";

let project: TempProject;
let outside: string;
let result: CliResult;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "compose-linked-package-"));
  await mkdir(join(outside, "linkpkg"));
  await writeFile(join(outside, "linkpkg", "package.json"), JSON.stringify({ name: "linkpkg", version: "2.0.0" }));
  await writeFile(join(outside, "linkpkg", "secret.txt"), SECRET);
  // Red when the outside text arrives, green when the fetch fails, blue for anything else.
  const script = `__compose.waitFor(
    fetch(${JSON.stringify(URL)})
      .then((response) => response.text())
      .then((text) => { out.textContent = text; out.style.background = text.includes(${JSON.stringify(SECRET)}) ? "#ff0000" : "#0000ff"; },
            () => { out.style.background = "#00ff00"; }),
    "linkpkg");`;
  project = await createProject({
    "index.html": compositionHtml({
      id: "linked",
      duration: 0.1,
      backdrop: "#000000",
      body: `<div id="out" style="position:absolute;left:0;top:0;width:320px;height:180px"></div>`,
      after: `<script>${script}</script>`,
    }),
  });
  await mkdir(project.path("node_modules"));
  await symlink(join(outside, "linkpkg"), project.path("node_modules", "linkpkg"));
  result = await render([project.dir, "--output", project.path("out"), "--format", "png-sequence", "--workers", "1", "--network", "none"]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe("a package linked out of the project", () => {
  it("is not served in place of the CDN: the fetch fails and the render names the refusal", async () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain(SECRET);
    expect(result.stderr).toContain(`refused ${URL}`);
    expect(result.stderr).toContain("the project cannot serve it: node_modules/linkpkg/package.json is a symbolic link that leads out of the project");
    const png = PNG.sync.read(await readFile(project.path("out", "frame_000000.png")));
    expect([...png.data.subarray((90 * png.width + 160) * 4, (90 * png.width + 160) * 4 + 3)]).toEqual([0, 255, 0]);
  });
});
