/**
 * No file of the user's is touched that the user did not name: an empty output (an unset shell
 * variable) or `-` is a usage error, and a png-sequence into a directory that already holds files
 * (the current directory above all) is refused unless --replace-output says to replace them.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
const OLD_FRAMES = Array.from({ length: 5 }, (_, i) => `frame_${String(i).padStart(6, "0")}.png`);
const USER_FILES = [...OLD_FRAMES, "audio.aac", "notes.txt"];

beforeAll(async () => {
  project = await createProject({ "comp/index.html": compositionHtml({ id: "seq", duration: 0.1, backdrop: "#00ff00" }), "work/.keep": "" });
  for (const name of USER_FILES) await writeFile(project.path("work", name), `the user's ${name}`);
});

afterAll(() => project?.remove());

async function untouched(): Promise<void> {
  for (const name of USER_FILES) expect(await readFile(project.path("work", name), "utf8")).toBe(`the user's ${name}`);
}

describe(
  "files the user did not name",
  () => {
    it.each([[""], ["-"]])("--output %j is a usage error in one line, and nothing in the current directory changes", async (output) => {
      const before = (await readdir(project.path("work"))).sort();
      const result = await render(["../comp", "-o", output, "--format", "png-sequence"], { cwd: project.path("work") });
      expect(result.code, result.stderr).toBe(2);
      expect(lines(result.stderr)).toEqual([
        `error: --output ${JSON.stringify(output)} names no file: give a file name, or a directory for png-sequence (a render cannot write to standard output)`,
      ]);
      expect((await readdir(project.path("work"))).sort()).toEqual(before);
      await untouched();
    });

    it("a png-sequence into the current directory, which holds files, is refused and leaves them", async () => {
      const result = await render(["../comp", "-o", ".", "--format", "png-sequence", "--workers", "1"], { cwd: project.path("work") });
      expect(result.code, result.stderr).toBe(1);
      expect(lines(result.stderr)).toEqual([
        `error: the output ${project.path("work")} already holds files this render did not write (.keep, audio.aac, frame_000000.png, … (8 entries)): give an empty or new directory, or --replace-output to replace them`,
      ]);
      await untouched();
    });

    it("with --replace-output the earlier sequence's frames and audio are replaced; other files stay", async () => {
      const result = await render(["../comp", "-o", ".", "--format", "png-sequence", "--workers", "1", "--replace-output"], { cwd: project.path("work") });
      expect(result.code, result.stderr).toBe(0);
      expect((await readdir(project.path("work"))).sort()).toEqual([".keep", "frame_000000.png", "frame_000001.png", "frame_000002.png", "notes.txt"]);
      expect(await readFile(project.path("work", "notes.txt"), "utf8")).toBe("the user's notes.txt");
    });
  },
  RENDER_HOOK_TIMEOUT_MS,
);
