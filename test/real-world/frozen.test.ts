/**
 * A render in which no frame changed although the page defines animation that nothing drives ends
 * with a warning naming it and the fix; a still composition by intent says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render } from "../support/cli.js";
import { createProject, type TempProject } from "../support/project.js";

function stage(id: string, script: string): string {
  return `<!doctype html><html><body><script src="gsap.min.js"></script>
<div id="stage" style="width:320px;height:180px;background:#000" data-composition-id="${id}" data-width="320" data-height="180" data-duration="0.3">
  <div id="box" style="width:20px;height:20px;background:#f00"></div>
  <div data-composition-id="card" data-composition-src="card.html" data-duration="0.3"></div>
</div><script>${script}</script></body></html>`;
}

const BUILD = 'gsap.timeline({ paused: true }).to("#box", { x: 100, duration: 0.3 })';

let project: TempProject;
beforeAll(async () => {
  project = await createProject(
    {
      "unregistered.html": stage("unregistered", `var tl = ${BUILD};`),
      "other-key.html": stage("other-key", `window.__timeline = ${BUILD};`),
      "still.html": stage("still", ""),
      "card.html": `<!doctype html><html><body><div data-composition-id="card" data-width="100" data-height="20"><p>card</p></div></body></html>`,
    },
    { gsap: true },
  );
});
afterAll(() => project?.remove());

describe("a frozen render", () => {
  it.each([
    [
      "unregistered",
      'window.tl is a paused GSAP animation that is not registered in window.__timelines, so nothing drives it: add window.__timelines["unregistered"] = tl after building it',
    ],
    [
      "other-key",
      'window.__timeline is a paused GSAP animation that is not registered in window.__timelines, so nothing drives it: add window.__timelines["other-key"] = __timeline after building it',
    ],
  ])("%s: ends with a warning naming the timeline and the fix", async (name, cause) => {
    const result = await render([project.path(`${name}.html`), "--quiet", "--output", project.path(`${name}.mp4`)]);
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([`warning: [no-change] no frame changed in 9 frames: ${cause}`]);
  });

  it("a composition that is still by intent renders without a word", async () => {
    const result = await render([project.path("still.html"), "--quiet", "--output", project.path("still.mp4")]);
    expect([result.code, result.stderr]).toEqual([0, ""]);
  });
});
