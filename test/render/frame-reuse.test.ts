/**
 * Frames in which nothing changed reuse the previous frame's image instead of being captured
 * again. That must never change a pixel: every composition here is rendered with and without
 * reuse and the PNG sequences must be byte-identical, while reuse must really happen.
 */
import { validateRenderOptions } from "@compose/core";
import { render } from "@compose/renderer";
import { readdir, readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const STATIC_THEN_MOVE = compositionHtml({
  id: "css",
  duration: 1,
  background: "#102030",
  css: `
    #a { position: absolute; left: 10px; top: 10px; width: 30px; height: 30px; background: #f00;
         animation: move 0.2s linear 0.5s both; }
    @keyframes move { from { transform: none; } to { transform: translateX(100px); } }
    #clip { position: absolute; left: 10px; top: 100px; width: 30px; height: 30px; background: #0f0; }
  `,
  body: `<div id="a"></div><div id="clip" data-start="0.8" data-duration="0.1"></div>`,
});

/** GSAP with a gap between tweens, a counter written from onUpdate, and a canvas drawn from onUpdate. */
const GSAP_WITH_GAPS = compositionHtml({
  id: "gsap",
  duration: 1,
  background: "#000000",
  css: `#box { position: absolute; left: 0; top: 0; width: 20px; height: 20px; background: #ff0; }
        #count { position: absolute; left: 0; top: 40px; color: #fff; font: 16px sans-serif; }
        canvas { position: absolute; left: 0; top: 80px; }`,
  body: `<div id="box"></div><div id="count"></div><canvas id="c" width="200" height="40"></canvas>`,
  after: `<script src="gsap.min.js"></script><script>
    const ctx = document.getElementById("c").getContext("2d");
    const state = { x: 0, n: 0 };
    const tl = gsap.timeline({ paused: true });
    tl.to("#box", { x: 100, duration: 0.2, ease: "none" }, 0.1);
    tl.to(state, { n: 50, duration: 0.2, ease: "none", onUpdate: () => {
      document.getElementById("count").textContent = Math.round(state.n); } }, 0.5);
    tl.to(state, { x: 150, duration: 0.2, ease: "none", onUpdate: () => {
      ctx.clearRect(0, 0, 200, 40); ctx.fillStyle = "#0ff"; ctx.fillRect(state.x, 0, 20, 20); } }, 0.75);
    window.__timelines.gsap = tl;
  </script>`,
});

/** A timer that changes a canvas (no DOM mutation) at 0.6 s, and a still instance. */
const TIMER_AND_INSTANCE = compositionHtml({
  id: "timer",
  duration: 1,
  background: "#222222",
  body: `<canvas id="c" width="100" height="50"></canvas>
    <div style="position:absolute;left:150px;top:0" data-composition-id="still" data-composition-src="still.html" data-start="0.3"></div>`,
  after: `<script>
    const ctx = document.getElementById("c").getContext("2d");
    ctx.fillStyle = "#f0f"; ctx.fillRect(0, 0, 20, 20);
    setTimeout(() => { ctx.fillStyle = "#0f0"; ctx.fillRect(40, 0, 20, 20); }, 600);
  </script>`,
});

const STILL = compositionHtml({
  id: "still",
  width: 100,
  height: 100,
  duration: 0.4,
  body: `<div style="width:50px;height:50px;background:#fff"></div>`,
});

let project: TempProject;

beforeAll(async () => {
  project = await createProject(
    { "css.html": STATIC_THEN_MOVE, "gsap.html": GSAP_WITH_GAPS, "timer.html": TIMER_AND_INSTANCE, "still.html": STILL },
    { gsap: true },
  );
});
afterAll(() => project?.remove());

async function renderBoth(file: string) {
  const result = validateRenderOptions({ format: "png-sequence", workers: 1 });
  if (!result.ok) throw new Error(result.problem.problem);
  const run = (reuseFrames: boolean) =>
    render({ composition: project.path(file), output: project.path(`${file}-${reuseFrames}`), options: result.options, reuseFrames });
  const [reused, plain] = [await run(true), await run(false)];
  const names = await readdir(project.path(`${file}-true`));
  const differing: string[] = [];
  for (const name of names) {
    const [a, b] = await Promise.all([readFile(project.path(`${file}-true`, name)), readFile(project.path(`${file}-false`, name))]);
    if (!a.equals(b)) differing.push(name);
  }
  return { reused: reused.stats.reused, plainReused: plain.stats.reused, frames: names.length, differing };
}

describe("reusing unchanged frames", () => {
  it.each([
    ["css.html", 20],
    ["gsap.html", 6],
    ["timer.html", 15],
  ])("%s: every frame identical to a render that captures all of them, with at least %i reused", async (file, minimum) => {
    const outcome = await renderBoth(file);
    expect(outcome.frames).toBe(30);
    expect(outcome.differing).toEqual([]);
    expect(outcome.plainReused).toBe(0);
    expect(outcome.reused).toBeGreaterThanOrEqual(minimum);
  });
});
