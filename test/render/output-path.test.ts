/**
 * Without --output, a render goes to renders/<name>.<format> under the current directory, where
 * <name> is the composition directory's name or the HTML file's base name; png-sequence gets a
 * directory renders/<name>/, created.
 */
import { existsSync } from "node:fs";
import { readdir, realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { ffprobe, videoStream } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const page = (id: string) =>
  compositionHtml({
    id,
    duration: 0.1,
    backdrop: "#336699",
    body: `<div style="position:absolute;left:10px;top:10px;width:50px;height:50px;background:#ffffff"></div>`,
  });

let project: TempProject;
let cwd: string;
let promo: string;
const results = new Map<string, CliResult>();

const CASES: Record<string, { args: (promo: string) => string[]; cwd: "cwd" | "promo" }> = {
  directory: { args: (dir) => [dir], cwd: "cwd" },
  "file as webm": { args: (dir) => [join(dir, "scene.html"), "--format", "webm"], cwd: "cwd" },
  sequence: { args: (dir) => [dir, "--format", "png-sequence"], cwd: "cwd" },
  "no path as mov": { args: () => ["--format", "mov"], cwd: "promo" },
};

beforeAll(async () => {
  project = await createProject({ "promo/index.html": page("promo-main"), "promo/scene.html": page("promo-scene"), "cwd/.keep": "" });
  // The CLI prints resolved paths; on some systems the temp directory is behind a symlink.
  cwd = await realpath(project.path("cwd"));
  promo = await realpath(project.path("promo"));
  await limited(
    2,
    Object.entries(CASES).map(([name, test]) => async () => {
      results.set(name, await render([...test.args(promo), "--workers", "1", "--quality", "draft"], { cwd: test.cwd === "cwd" ? cwd : promo }));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

/** The output line names the file, as a path relative to the current directory or an absolute one. */
function expectOutputLine(stdout: string, file: string, from: string): void {
  const shown = /^Output: (.+) \(/m.exec(stdout)?.[1];
  expect(shown, stdout).toBeDefined();
  expect(resolve(from, shown!)).toBe(file);
}

function succeeded(name: string): CliResult {
  const result = results.get(name)!;
  expect(result.stderr, `${name} stderr`).toBe("");
  expect(result.code, `${name} exit code`).toBe(0);
  return result;
}

describe("default output path", () => {
  it("a directory renders to ./renders/<directory name>.mp4", async () => {
    const result = succeeded("directory");
    const file = join(cwd, "renders", "promo.mp4");
    expect(existsSync(file)).toBe(true);
    expect(videoStream(await ffprobe(file)).codec_name).toBe("h264");
    expectOutputLine(result.stdout, file, cwd);
  });

  it("an HTML file renders to ./renders/<file base name>; the extension follows --format (.webm)", async () => {
    const result = succeeded("file as webm");
    const file = join(cwd, "renders", "scene.webm");
    expect(videoStream(await ffprobe(file)).codec_name).toBe("vp9");
    expectOutputLine(result.stdout, file, cwd);
  });

  it("png-sequence creates the directory ./renders/<name>/ holding the frames", async () => {
    const result = succeeded("sequence");
    const dir = join(cwd, "renders", "promo");
    expect((await readdir(dir)).sort()).toEqual(["frame_000000.png", "frame_000001.png", "frame_000002.png"]);
    expectOutputLine(result.stdout, dir, cwd);
  });

  it("no path argument renders the current directory to ./renders/<its name>; --format mov gives .mov", async () => {
    const result = succeeded("no path as mov");
    const file = join(promo, "renders", "promo.mov");
    expect(videoStream(await ffprobe(file)).codec_name).toBe("prores");
    expectOutputLine(result.stdout, file, promo);
  });

  it("nothing else is written beside the outputs (no staging leftovers)", async () => {
    for (const name of Object.keys(CASES)) succeeded(name);
    expect((await readdir(join(cwd, "renders"))).sort()).toEqual(["promo", "promo.mp4", "scene.webm"]);
    expect(await readdir(join(promo, "renders"))).toEqual(["promo.mov"]);
  });
});
