/**
 * A composition sees only its project's regular files: an <img> through a symbolic link to a
 * file outside the project, or of a dotfile, draws nothing, while a link inside the project works.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

function solid(rgb: [number, number, number]): Buffer {
  const png = new PNG({ width: 8, height: 8 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([...rgb, 255], i);
  return PNG.sync.write(png);
}

let project: TempProject;
let outside: string;
let result: CliResult;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "compose-outside-"));
  await writeFile(join(outside, "secret.png"), solid([255, 0, 0]));
  const img = (src: string, left: number) => `<img src="${src}" style="position:absolute;left:${left}px;top:0;width:80px;height:180px">`;
  project = await createProject({
    "index.html": compositionHtml({
      id: "files",
      duration: 0.1,
      backdrop: "#000000",
      body: img("linked-out.png", 0) + img("dir-out/secret.png", 80) + img(".hidden.png", 160) + img("linked-in.png", 240),
    }),
    ".hidden.png": solid([255, 0, 0]),
    "green.png": solid([0, 255, 0]),
  });
  await symlink(join(outside, "secret.png"), project.path("linked-out.png"));
  await symlink(outside, project.path("dir-out"));
  await symlink(project.path("green.png"), project.path("linked-in.png"));
  // Refused files answer 404, which fails a render by default; here the frame shows what they drew.
  result = await render([project.dir, "--output", project.path("out"), "--format", "png-sequence", "--workers", "1", "--allow-missing-assets"]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe("project files", () => {
  it("links out of the project and dotfiles draw nothing; a link inside the project draws", async () => {
    expect(result.code, result.stderr).toBe(0);
    for (const refused of ["linked-out.png", "dir-out/secret.png", ".hidden.png"]) {
      expect(result.stderr).toContain(`image ${refused} failed to load (it `);
    }
    expect(result.stderr).not.toContain("linked-in.png");
    expect(result.stderr).not.toContain("404");
    const png = PNG.sync.read(await readFile(project.path("out", "frame_000000.png")));
    const at = (x: number) => [...png.data.subarray((90 * png.width + x) * 4, (90 * png.width + x) * 4 + 4)];
    expect(at(40), "a link to a file outside").toEqual([0, 0, 0, 255]);
    expect(at(120), "a link to a directory outside").toEqual([0, 0, 0, 255]);
    expect(at(200), "a dotfile").toEqual([0, 0, 0, 255]);
    expect(at(280), "a link inside the project").toEqual([0, 255, 0, 255]);
  });
});
