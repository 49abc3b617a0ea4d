/**
 * Output paths that cannot work are refused before any browser starts, with one line naming the
 * path and what is allowed. The runs point COMPOSE_BROWSER at nothing: a render that got as far as
 * starting a browser would fail with browser-missing instead.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedRender } from "../support/api-run.js";
import { limited, lines, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const NO_BROWSER = { COMPOSE_BROWSER: "/nonexistent/chromium-headless-shell" };

let project: TempProject;
const results = new Map<string, CliResult>();

const CASES: Record<string, () => string[]> = {
  "existing directory as mp4": () => ["--output", project.path("existing-dir"), "--format", "mp4"],
  "read-only place": () => ["--output", "/sys/compose-output-check/video.mp4"],
  "under a file": () => ["--output", project.path("plain-file.txt", "video.mp4")],
  ".mov with --format mp4": () => ["--output", project.path("video.mov"), "--format", "mp4"],
  ".mp4 with --format webm": () => ["--output", project.path("video.mp4"), "--format", "webm"],
  "png-sequence onto a file": () => ["--output", project.path("plain-file.txt"), "--format", "png-sequence"],
};

beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "out", duration: 0.2 }), "plain-file.txt": "not a directory" });
  await mkdir(project.path("existing-dir"));
  await writeFile(project.path("existing-dir", "keep.txt"), "kept");
  await limited(
    3,
    Object.entries(CASES).map(([name, args]) => async () => {
      results.set(name, await render([project.dir, "--workers", "1", ...args()], { env: NO_BROWSER }));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

function refusal(name: string): string {
  const result = results.get(name)!;
  expect(result.code, result.stderr).toBe(1);
  const errorLines = lines(result.stderr);
  expect(errorLines, result.stderr).toHaveLength(1);
  expect(errorLines[0]).not.toContain("chromium-headless-shell");
  return errorLines[0]!;
}

describe("output paths refused before any browser starts", () => {
  it("an existing directory for a file format: names the directory and suggests a file in it", async () => {
    expect(refusal("existing directory as mp4")).toMatch(
      /existing-dir is a directory; a mp4 output is a file: give a file name such as .*existing-dir\/video\.mp4/,
    );
    expect(await readdir(project.path("existing-dir"))).toEqual(["keep.txt"]);
  });

  it("a place the render may not write in: names the directory", () => {
    expect(refusal("read-only place")).toMatch(/cannot be written: \/sys refuses new files/);
  });

  it("a path under a file: names the file", () => {
    expect(refusal("under a file")).toMatch(/plain-file\.txt is not a directory/);
  });

  it("an extension naming another format than --format: names both", () => {
    expect(refusal(".mov with --format mp4")).toMatch(/video\.mov ends in \.mov but the format is mp4: use --format mov/);
    expect(refusal(".mp4 with --format webm")).toMatch(/video\.mp4 ends in \.mp4 but the format is webm: use --format mp4/);
  });

  it("png-sequence onto an existing file", () => {
    expect(refusal("png-sequence onto a file")).toMatch(/plain-file\.txt is a file; png-sequence writes a directory/);
  });

  it("the library reports the code invalid-output, and leaves nothing", async () => {
    const run = await isolatedRender(project.path("api-run"), { composition: project.path("index.html"), output: "video.webm", options: { format: "mp4" } });
    expect(run.error?.code).toBe("invalid-output");
    expect(run.events.map((event) => event.type)).toEqual(["failed"]);
    expect(run.besideOutput).toEqual([]);
    expect(run.temporary).toEqual([]);
  });
});
