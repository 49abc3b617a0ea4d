/**
 * The plan decides how many browsers a render starts: one loads the composition, and the others
 * are started only for the frame ranges the plan gives them. A slice with fewer frames than
 * workers starts no browser that would not capture.
 */
import { chmod, readdir, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBrowserExecutable } from "@compose/renderer";
import { render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
const runs = new Map<string, { result: CliResult; browsers: number; frames: string[] }>();

/** The real browser behind a script that leaves one mark per start in `marks`. */
async function countingBrowser(name: string): Promise<{ path: string; marks: string }> {
  const marks = project.path(`marks-${name}`);
  const path = project.path(`browser-${name}.sh`);
  await writeFile(path, `#!/bin/sh\nmkdir -p '${marks}'\n: > "${marks}/$$"\nexec '${findBrowserExecutable()}' "$@"\n`);
  await chmod(path, 0o755);
  return { path, marks };
}

async function run(name: string, args: string[]): Promise<void> {
  const browser = await countingBrowser(name);
  const output = project.path(`out-${name}`);
  const result = await render([project.path("index.html"), "--format", "png-sequence", "--output", output, ...args], {
    env: { COMPOSE_BROWSER: browser.path },
  });
  const browsers = (await readdir(browser.marks).catch(() => [])).length;
  const frames = (await readdir(output).catch(() => [])).filter((file) => file.endsWith(".png"));
  runs.set(name, { result, browsers, frames });
}

beforeAll(async () => {
  project = await createProject({
    "index.html": compositionHtml({ id: "plan", duration: 0.5, background: "#204060", body: `<div style="width:40px;height:40px;background:#fff"></div>` }),
  });
  await run("slice", ["--workers", "3", "--frames", "4-5"]);
  await run("whole", ["--workers", "3"]);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

describe("browsers a render starts", () => {
  it("a two-frame slice with three workers starts two browsers and renders both frames", () => {
    const { result, browsers, frames } = runs.get("slice")!;
    expect(result.code, result.stderr).toBe(0);
    expect(frames).toHaveLength(2);
    expect(browsers).toBe(2);
  });

  it("the whole composition with three workers starts three", () => {
    const { result, browsers, frames } = runs.get("whole")!;
    expect(result.code, result.stderr).toBe(0);
    expect(frames).toHaveLength(15);
    expect(browsers).toBe(3);
  });
});
