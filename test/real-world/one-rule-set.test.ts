/**
 * Render and lint share one rule set: render refuses, before capture, what lint calls an error,
 * with the same code and message; lint finds statically what render would refuse; a clip whose
 * start cannot be resolved is never shown.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../packages/runtime/test/page-harness.js";
import { lines, render, runCli } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

function stage(id: string, inner: string, attributes = 'data-duration="0.2"', size = 'data-width="320" data-height="180"'): string {
  return `<!doctype html><html><body>\n<div data-composition-id="${id}" ${size} ${attributes}>\n${inner}\n</div></body></html>`;
}

let project: TempProject;
beforeAll(async () => {
  project = await createProject({
    "unknown.html": stage("unknown", '<p id="b" data-start="intro" data-duration="0.1">b</p>'),
    "endless.html": stage("endless", "<p>no clip, no script</p>", ""),
    "odd.html": stage("odd", "<p>odd</p>", 'data-duration="0.2"', 'data-width="321" data-height="180"'),
    // Only the live DOM shows this one: a script sets the start.
    "scripted.html": stage("scripted", '<p id="b" data-duration="0.1">b</p><script>document.getElementById("b").dataset.start = "ghost";</script>'),
  });
});
afterAll(() => project?.remove());

/** `code  message` of each lint error line. */
async function lintErrors(name: string): Promise<Array<{ where: string; code: string; message: string }>> {
  const result = await runCli(["lint", project.path(`${name}.html`)]);
  return lines(result.stdout)
    .map((line) => /^(\S+)  (error|warning)  (\S+)  (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, where, , code, message]) => ({ where: where!.slice(where!.lastIndexOf("/") + 1), code: code!, message: message! }));
}

describe("render refuses what lint calls an error, with lint's code and message", () => {
  it.each([["unknown"], ["endless"]])("%s", async (name) => {
    const [finding] = await lintErrors(name);
    expect(finding).toBeDefined();
    const output = project.path(`${name}.mp4`);
    const result = await render([project.path(`${name}.html`), "--output", output]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(lines(result.stderr)).toEqual([`error: [${finding!.code}] ${finding!.message} (${finding!.where})`]);
    expect(existsSync(output)).toBe(false);
  });

  it("lint warns of an odd size, which render refuses for mp4 with the same code and message", async () => {
    const [finding] = await lintErrors("odd");
    expect(finding?.code).toBe("odd-size");
    const result = await render([project.path("odd.html"), "--output", project.path("odd.mp4")]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([`error: [odd-size] ${finding!.message}`]);
  });

  it("refuses a start that only the live DOM cannot resolve, before capture", async () => {
    const result = await render([project.path("scripted.html"), "--output", project.path("scripted.mp4")]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(lines(result.stderr)).toEqual(['error: [timing-unknown-reference] "b" starts after "ghost", but no timed element has that id']);
  });
});

describe("an unresolved clip", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("is never shown", async () => {
    const page = await harness.open(stage("preview", '<p id="b" data-start="ghost">b</p><p id="c" data-start="0">c</p>'));
    for (const t of [0, 0.1, 5]) {
      await page.evaluate((time) => window.__compose!.seek(time), t);
      const shown = await page.evaluate(() => ["b", "c"].filter((id) => getComputedStyle(document.getElementById(id)!).visibility === "visible"));
      expect(shown, `t=${t}`).toEqual(["c"]);
    }
  });
});
