/**
 * Render and lint share one rule set: render refuses, before capture, what lint calls an error,
 * with the same code and message; lint finds statically what render would refuse; a clip whose
 * start cannot be resolved is never shown.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
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
    // Every kind of local reference, each relative to the file that makes it; one is missing in each file.
    "refs.html": stage("refs", '<img src="img/a.png" srcset="img/a.png 1x, img/a@2x.png 2x"><div style="background:url(img/a.png)"></div>').replace(
      "<body>",
      '<head><link rel="stylesheet" href="css/main.css"><script src="lib/present.js"></script></head><body>',
    ),
    "img/a.png": "",
    "lib/present.js": "",
    "css/main.css": '@import "fonts.css";\n.a { background: url(../img/a.png) }',
    "css/fonts.css": '@font-face { font-family: F; src: url("../fonts/f.woff2"); }',
    "embeds.html": stage("embeds", '<div data-composition-id="c" data-composition-src="parts/card.html"></div>'),
    "parts/card.html": stage("card", '<img src="logo.png">'),
    "remote.html": stage("remote", '<img src="https://cdn.example.com/a.png">'),
  });
});
afterAll(() => project?.remove());

/** `code  message` of each lint error line. */
async function lintErrors(name: string): Promise<Array<{ where: string; inProject: string; code: string; message: string }>> {
  const result = await runCli(["lint", project.path(`${name}.html`)]);
  const projectName = `${basename(project.dir)}/`;
  return lines(result.stdout)
    .map((line) => /^(\S+)  (error|warning)  (\S+)  (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, where, , code, message]) => ({
      where: where!.slice(where!.lastIndexOf("/") + 1),
      inProject: where!.slice(where!.indexOf(projectName) + projectName.length),
      code: code!,
      message: message!,
    }));
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

  it.each([
    ["refs", ['<img> srcset "img/a@2x.png"', 'url() "../fonts/f.woff2"']],
    ["embeds", ['<img> src "logo.png"']],
  ])("%s: lint finds each missing local reference, and render refuses the first with its code and message", async (name, missing) => {
    const findings = await lintErrors(name);
    expect(findings.map((finding) => finding.code)).toEqual(missing.map(() => "missing-asset"));
    expect(findings.map((finding) => finding.message)).toEqual(missing.map((reference) => `${reference}: the file does not exist`));
    const result = await render([project.path(`${name}.html`), "--output", project.path(`${name}.mp4`)]);
    expect(result.code).toBe(1);
    const more = findings.length > 1 ? `; ${findings.length - 1} more error${findings.length > 2 ? "s" : ""}: run compose lint` : "";
    expect(lines(result.stderr)).toEqual([
      `error: [missing-asset] ${findings[0]!.message} (${findings[0]!.inProject}); fix the reference, or render with --allow-missing-assets to go ahead without it${more}`,
    ]);
  });

  it("a remote URL is reported only when --network none would refuse it", async () => {
    expect(await lintErrors("remote")).toEqual([]);
    const offline = await runCli(["lint", project.path("remote.html"), "--network", "none"]);
    expect(lines(offline.stdout)[0]).toMatch(
      /remote\.html:3:\d+  warning  network-refused  refused https:\/\/cdn\.example\.com\/a\.png: only the project is allowed \(allowed by --allow-host cdn\.example\.com or --network all\)$/,
    );
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
