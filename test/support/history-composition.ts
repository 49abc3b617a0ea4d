/**
 * A composition whose state builds up over time, one lane per kind of history: each lane is a
 * box whose x is what a page played from time 0 shows at that frame. Rendered with any split of
 * the frames, every frame must be the same, and each box where `expectedX` puts it.
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { boxX, hex, type Frame } from "./media.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "./project.js";

export const HISTORY_FPS = 30;
export const HISTORY_FRAMES = 18; // 0.6 s
const LANE_HEIGHT = 20;
/** Pixels per millisecond of the lanes that move with time. */
const SPEED = 0.4;

export interface Lane {
  name: string;
  colour: string;
  /** The box's left edge at frame n of a page played from 0. */
  expectedX(frame: number): number;
  /** How far the measured edge may be from expectedX (anti-aliasing, library rounding). */
  tolerance: number;
}

const ms = (frame: number) => (frame * 1000) / HISTORY_FPS;

/** Euler steps once per frame, as the page does: v += a*dt, x += v*dt, dt from the rAF timestamps. */
function integrated(frame: number): number {
  let v = 0;
  let x = 0;
  for (let n = 1; n <= frame; n++) {
    const dt = (ms(n) - ms(n - 1)) / 1000;
    v += 1200 * dt;
    x += v * dt;
  }
  return x;
}

export const LANES: Lane[] = [
  { name: "rAF time from its first callback", colour: "#ff0000", expectedX: (n) => SPEED * ms(n), tolerance: 1 },
  { name: "velocity integrated per frame", colour: "#00ff00", expectedX: integrated, tolerance: 1 },
  { name: "setInterval counter", colour: "#0000ff", expectedX: (n) => 30 * Math.floor(ms(n) / 100 + 1e-9), tolerance: 1 },
  { name: "rAF counter", colour: "#ffff00", expectedX: (n) => 12 * (n + 1), tolerance: 1 },
  { name: "rAF loop in a plain iframe", colour: "#ff00ff", expectedX: (n) => SPEED * ms(n), tolerance: 1 },
  { name: "anime.js", colour: "#00ffff", expectedX: (n) => SPEED * ms(n), tolerance: 6 },
  { name: "d3 transition", colour: "#ffffff", expectedX: (n) => SPEED * ms(n), tolerance: 3 },
  { name: "GSAP set at 0", colour: "#ff8000", expectedX: (n) => (n < 12 ? 100 : 200), tolerance: 1 },
  { name: "GSAP set at 0 in a nested timeline", colour: "#8080ff", expectedX: () => 150, tolerance: 1 },
];

const box = (lane: number, colour: string) =>
  `position: absolute; left: 0; top: ${lane * LANE_HEIGHT + 2}px; width: 12px; height: ${LANE_HEIGHT - 4}px; background: ${colour};`;

const inner = `<!doctype html>
<html><head><style>* { margin: 0; padding: 0; } #b { ${box(0, "#ff00ff")} }</style></head>
<body><div id="b"></div>
<script>
  const b = document.getElementById("b");
  function step(ts) { b.style.transform = "translateX(" + (${SPEED} * ts) + "px)"; requestAnimationFrame(step); }
  requestAnimationFrame(step);
</script></body></html>`;

const index = compositionHtml({
  id: "history",
  duration: HISTORY_FRAMES / HISTORY_FPS,
  backdrop: "#000000",
  css:
    LANES.map((lane, i) => `#lane${i} { ${box(i, lane.colour)} }`).join("\n") +
    `\n#frame { position: absolute; left: 0; top: ${4 * LANE_HEIGHT}px; width: 320px; height: ${LANE_HEIGHT}px; border: 0; }`,
  head: `<script src="gsap.min.js"></script><script src="anime.umd.min.js"></script><script src="d3.min.js"></script>`,
  body: LANES.map((_, i) => (i === 4 ? `<iframe id="frame" src="inner.html"></iframe>` : `<div id="lane${i}"></div>`)).join(""),
  after: `<script>
    const lane = (i) => document.getElementById("lane" + i);
    let t0 = null;
    requestAnimationFrame(function first(ts) {
      if (t0 === null) t0 = ts;
      lane(0).style.transform = "translateX(" + ${SPEED} * (ts - t0) + "px)";
      requestAnimationFrame(first);
    });
    let v = 0, x = 0, last = null;
    requestAnimationFrame(function integrate(ts) {
      const dt = last === null ? 0 : (ts - last) / 1000;
      last = ts;
      v += 1200 * dt;
      x += v * dt;
      lane(1).style.transform = "translateX(" + x + "px)";
      requestAnimationFrame(integrate);
    });
    let count = 0;
    setInterval(() => { count++; lane(2).style.transform = "translateX(" + 30 * count + "px)"; }, 100);
    let frames = 0;
    requestAnimationFrame(function counter() {
      frames++;
      lane(3).style.transform = "translateX(" + 12 * frames + "px)";
      requestAnimationFrame(counter);
    });
    anime.animate("#lane5", { x: ${SPEED * 600}, duration: 600, ease: "linear" });
    d3.select("#lane6").transition().duration(600).ease(d3.easeLinear).styleTween("transform", () => (k) => "translateX(" + ${SPEED * 600} * k + "px)");
    const tl = gsap.timeline({ paused: true });
    tl.set("#lane7", { x: 100 }, 0);
    tl.set("#lane7", { x: 200 }, 0.4);
    const nested = gsap.timeline();
    nested.set("#lane8", { x: 150 }, 0);
    tl.add(nested, 0);
    window.__timelines.history = tl;
  </script>`,
});

/** A project holding the composition and the libraries it loads from npm. */
export async function createHistoryProject(): Promise<TempProject> {
  const project = await createProject({ "index.html": index, "inner.html": inner }, { gsap: true, prefix: "compose-history-" });
  const modules = join(REPO_ROOT, "node_modules");
  await copyFile(join(modules, "animejs/dist/bundles/anime.umd.min.js"), project.path("anime.umd.min.js"));
  await copyFile(join(modules, "d3/dist/d3.min.js"), project.path("d3.min.js"));
  return project;
}

/** Where each lane's box is in a decoded frame (undefined when it is not drawn). */
export function laneXs(frame: Frame): Array<number | undefined> {
  return LANES.map((lane, i) => boxX(frame, i * LANE_HEIGHT + LANE_HEIGHT / 2, hex(lane.colour), 60));
}
