/**
 * The duration rule: data-duration, else the end of the last clip or media, else the longest
 * timeline registered in window.__timelines; the start line says which one gave it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render } from "../support/cli.js";
import { countFrames } from "../support/media.js";
import { createProject, type TempProject } from "../support/project.js";

function stage(id: string, attributes: string, inner: string, script: string): string {
  return `<!doctype html><html><body><script src="gsap.min.js"></script>
  <div id="${id}" data-composition-id="${id}" data-width="320" data-height="180" ${attributes}>${inner}
    <div id="box" style="width:20px;height:20px;background:#f00"></div></div>
  <script>${script}</script></body></html>`;
}

const TIMELINE = (id: string, seconds: number) =>
  `const tl = gsap.timeline({ paused: true }); tl.to("#box", { x: 100, duration: ${seconds} }); window.__timelines["${id}"] = tl;`;

let project: TempProject;
beforeAll(async () => {
  project = await createProject(
    {
      "timeline.html": stage("timeline", "", "", TIMELINE("timeline", 0.5)),
      "clips.html": stage("clips", "", '<p id="a" data-start="0" data-duration="0.3"></p>', TIMELINE("clips", 0.5)),
      "declared.html": stage("declared", 'data-duration="0.2"', '<p id="a" data-start="0" data-duration="0.3"></p>', TIMELINE("declared", 0.5)),
      // A host without data-duration lasts as long as its instance, whose length is its timeline's.
      "host.html": `<!doctype html><html><body><div data-composition-id="host" data-width="320" data-height="180">
        <div data-composition-id="part" data-composition-src="timeline.html"></div></div></body></html>`,
    },
    { gsap: true },
  );
});
afterAll(() => project?.remove());

describe("duration rule", () => {
  it.each([
    ["timeline", 15, "15 frames, 320x180, 1 worker; 0.5 s from the longest timeline in window.__timelines"],
    ["clips", 9, "9 frames, 320x180, 1 worker; 0.3 s to the end of the last clip"],
    ["declared", 6, "6 frames, 320x180, 1 worker; 0.2 s from data-duration"],
    ["host", 15, "15 frames, 320x180, 1 worker; 0.5 s to the end of the last clip"],
  ])("%s: %i frames", async (name, frames, line) => {
    const output = project.path(`${name}.mp4`);
    const result = await render([project.path(`${name}.html`), "--workers", "1", "--output", output]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(`Rendering ${name} at 30 fps, standard quality: ${line}`);
    expect(await countFrames(output)).toBe(frames);
  });
});
