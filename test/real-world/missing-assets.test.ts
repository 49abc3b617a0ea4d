/**
 * An asset that fails to load fails the render by default, naming it, its status and who asked for
 * it (one the markup names is found before the browser starts, as lint finds it); with
 * --allow-missing-assets each is a warning.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

function stage(id: string, inner: string, head = ""): string {
  return `<!doctype html><html><head>${head}</head><body>
<div id="stage" style="width:320px;height:180px" data-composition-id="${id}" data-width="320" data-height="180" data-duration="0.2">
${inner}
</div></body></html>`;
}

const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

let project: TempProject;
beforeAll(async () => {
  project = await createProject({
    "images/present.png": PIXEL,
    "img.html": stage("img", `<img src="images/present.png"><img src="images/missing.png">`),
    "css.html": stage("css", `<div id="bg"></div>`, `<style>#bg { width: 10px; height: 10px; background: url("textures/missing.png"); }</style>`),
    "seek.html": stage(
      "seek",
      `<p id="out"></p>`,
      `<script>__compose.onSeek(async (t) => { if (t > 0.1) document.getElementById("out").textContent = await (await fetch("data/missing.json")).text(); });</script>`,
    ),
  });
});
afterAll(() => project?.remove());

describe("a missing asset", () => {
  it.each([
    ["img", '[missing-asset] <img> src "images/missing.png": the file does not exist (img.html:3:36)'],
    ["css", '[missing-asset] <style> url() "textures/missing.png": the file does not exist (css.html:1:80)'],
    // Only the running page asks for this one.
    ["seek", "fetch data/missing.json failed to load (HTTP 404, requested by seek.html:1)"],
  ])("%s: fails the render, naming it", async (name, message) => {
    const output = project.path(`${name}.mp4`);
    const result = await render([project.path(`${name}.html`), "--output", output]);
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([`error: ${message}; fix the reference, or render with --allow-missing-assets to go ahead without it`]);
    expect(existsSync(output)).toBe(false);
  });

  it("with --allow-missing-assets: one warning per asset, and the video", async () => {
    const output = project.path("allowed.mp4");
    const result = await render([project.path("img.html"), "--allow-missing-assets", "--workers", "2", "--quiet", "--output", output]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual(["warning: [missing-asset] image images/missing.png failed to load (HTTP 404, requested by img.html:3)"]);
    expect(existsSync(output)).toBe(true);
  });
});
