/**
 * Libraries from a CDN resolve locally: a script on jsdelivr, unpkg or cdnjs at an exact version
 * is served from the project's node_modules when it has that package at that version, so the
 * composition renders under `--network none`; another version is refused with the command that
 * adds it.
 */
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const GSAP = join(REPO_ROOT, "node_modules/gsap");
const { version } = JSON.parse(await readFile(join(GSAP, "package.json"), "utf8")) as { version: string };
const SOURCES: Record<string, string> = {
  jsdelivr: `https://cdn.jsdelivr.net/npm/gsap@${version}/dist/gsap.min.js`,
  "jsdelivr-default": `https://cdn.jsdelivr.net/npm/gsap@${version}`,
  unpkg: `https://unpkg.com/gsap@${version}/dist/gsap.min.js`,
  cdnjs: `https://cdnjs.cloudflare.com/ajax/libs/gsap/${version}/gsap.min.js`,
  "other-version": "https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js",
};

let project: TempProject;
const runs = new Map<string, CliResult>();

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (const [name, src] of Object.entries(SOURCES)) {
    files[`${name}.html`] = compositionHtml({
      id: "main",
      duration: 0.1,
      backdrop: "#000000",
      body: `<div id="box" style="position:absolute;left:0;top:0;width:40px;height:40px;background:#ff0000"></div>`,
      after: `<script src="${src}"></script><script>gsap.set("#box", { x: 200 });</script>`,
    });
  }
  project = await createProject(files);
  await mkdir(project.path("node_modules/gsap/dist"), { recursive: true });
  await cp(join(GSAP, "package.json"), project.path("node_modules/gsap/package.json"));
  await cp(join(GSAP, "dist/gsap.min.js"), project.path("node_modules/gsap/dist/gsap.min.js"));
  await cp(join(GSAP, "dist/gsap.js"), project.path("node_modules/gsap/dist/gsap.js"));
  await limited(
    2,
    Object.keys(SOURCES).map((name) => async () => {
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

describe("a library from a CDN, offline", () => {
  it.each(["jsdelivr", "jsdelivr-default", "unpkg", "cdnjs"])("runs the project's copy for a %s URL", async (name) => {
    const run = runs.get(name)!;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("network-refused");
    const png = PNG.sync.read(await readFile(project.path("out", name, "frame_000000.png")));
    const at = (x: number) => [...png.data.subarray((20 * png.width + x) * 4, (20 * png.width + x) * 4 + 3)];
    expect(at(220)).toEqual([255, 0, 0]);
    expect(at(20)).toEqual([0, 0, 0]);
  });

  it("refuses a version the project does not have, naming the command that adds it", () => {
    const run = runs.get("other-version")!;
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("refused https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js");
    expect(run.stderr).toContain("npm install gsap@3.12.5");
  });
});
