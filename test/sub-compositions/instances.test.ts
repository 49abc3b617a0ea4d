/**
 * Sub-compositions: one file embedded many times, each instance with its own values, DOM ids,
 * CSS, timeline and local time, placed by its host's start (including starts relative to
 * another instance), and nothing of one instance reaching another or the parent.
 */
import { extractCompositionMetadata } from "@compose/core";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, type CliResult } from "../support/cli.js";
import { boxX, decodeAllFrames, hex, isColour, type Frame } from "../support/media.js";
import { createProject, type TempProject } from "../support/project.js";

const FPS = 30;

/**
 * card.html moves #box 0 -> 60 px over its own 0.6 s with a GSAP timeline registered under its
 * own id, paints it in its `color` variable, and styles it through id selectors, as an author
 * who never heard of instances would write it.
 */
const card = `<!doctype html>
<html data-composition-variables='[
  {"id":"color","type":"color","label":"Colour","default":"#ffffff"},
  {"id":"late","type":"color","label":"Late colour","default":"#ffffff"}
]'>
<head><style>
  * { margin: 0; }
  #card { position: relative; width: 100px; height: 60px; }
  #box { position: absolute; left: 0; top: 0; width: 20px; height: 20px; }
  #late { position: absolute; left: 0; top: 40px; width: 20px; height: 20px; }
  div { box-sizing: border-box; }
</style></head>
<body>
<div id="card" data-composition-id="card" data-width="100" data-height="60" data-duration="0.6">
  <div id="box"></div><div id="late"></div>
</div>
<script src="gsap.min.js"></script>
<script>
  const { color = "#ffffff" } = __compose.getVariables();
  document.getElementById("box").style.background = color;
  const tl = gsap.timeline({ paused: true });
  tl.to("#box", { x: 60, duration: 0.6, ease: "none" });
  window.__timelines = window.__timelines || {};
  window.__timelines["card"] = tl;
  // Values asked for later, from a callback, are still this instance's.
  requestAnimationFrame(() => {
    document.getElementById("late").style.background = window.__compose.getVariables().late;
  });
</script>
</body></html>`;

/** a at 0 for 0.5 s; b right after a; c 0.2 s before b ends; each card 100x60 in its own row. */
const index = `<!doctype html>
<html data-composition-variables='[{"id":"color","type":"color","label":"Colour","default":"#808080"}]'>
<head><style>
  * { margin: 0; }
  #stage { position: relative; width: 320px; height: 180px; }
  #backdrop { position: absolute; inset: 0; background: #000000; }
  .host { position: absolute; left: 0; }
  #box { position: absolute; left: 260px; top: 0; width: 20px; height: 20px; background: #ffffff; }
</style></head>
<body>
<div id="stage" data-composition-id="main" data-width="320" data-height="180">
  <div id="backdrop"></div>
  <div class="host" style="top: 0" data-composition-id="a" data-composition-src="card.html"
       data-start="0" data-duration="0.5" data-variable-values='{"color":"#ff0000","late":"#ff8000"}'></div>
  <div class="host" style="top: 60px" data-composition-id="b" data-composition-src="card.html"
       data-start="a" data-variable-values='{"color":"#00ff00","late":"#00ff80"}'></div>
  <div class="host" style="top: 120px" data-composition-id="c" data-composition-src="card.html"
       data-start="b - 0.2" data-variable-values='{"color":"#0000ff"}'></div>
  <div class="host" style="top: 0; left: 110px" data-composition-id="d" data-composition-src="card.html"
       data-start="0" data-duration="1.5" data-variable-values='{"color":"#ffff00"}'></div>
  <div id="box"></div>
</div>
</body></html>`;

let project: TempProject;
let result: CliResult;
let frames: Frame[];

beforeAll(async () => {
  project = await createProject({ "index.html": index, "card.html": card }, { gsap: true });
  result = await render([
    project.dir,
    "--format",
    "png-sequence",
    "--workers",
    "1",
    "--output",
    project.path("out"),
    // The top level's own variable: it must not reach the instances, which declare one of the same name.
    "--variables",
    '{"color":"#ff00ff"}',
  ]);
  if (result.code === 0) frames = await decodeAllFrames(project.path("out/frame_%06d.png"));
});
afterAll(() => project?.remove());

const RED = hex("#ff0000");
const GREEN = hex("#00ff00");
const BLUE = hex("#0000ff");

describe("three instances of one file", () => {
  it("renders, lasting until the last instance ends", () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // c starts at 0.5 + 0.6 - 0.2 = 0.9 and lasts its card's 0.6 s.
    expect(frames).toHaveLength(Math.round(1.5 * FPS));
  });

  it("gives each instance its own values and its own motion from its own start", () => {
    // t = 0.2: a is 0.2 s in (x = 20); b and c have not started.
    expect(boxX(frames[6]!, 10, RED)).toBeCloseTo(20, -0.5);
    expect(boxX(frames[6]!, 70, GREEN)).toBeUndefined();
    expect(boxX(frames[6]!, 130, BLUE)).toBeUndefined();
    // t = 0.7: a is cut by its host at 0.5; b is 0.2 s in; c starts at 0.9.
    expect(boxX(frames[21]!, 10, RED)).toBeUndefined();
    expect(boxX(frames[21]!, 70, GREEN)).toBeCloseTo(20, -0.5);
    expect(boxX(frames[21]!, 130, BLUE)).toBeUndefined();
    // t = 1.0: b is 0.5 s in (x = 50); c is 0.1 s in (x = 10).
    expect(boxX(frames[30]!, 70, GREEN)).toBeCloseTo(50, -0.5);
    expect(boxX(frames[30]!, 130, BLUE)).toBeCloseTo(10, -0.5);
    // t = 1.2: b ended at 1.1.
    expect(boxX(frames[36]!, 70, GREEN)).toBeUndefined();
    expect(boxX(frames[36]!, 130, BLUE)).toBeCloseTo(30, -0.5);
  });

  it("keeps values asked for in later callbacks to the instance that asks", () => {
    expect(isColour(frames[6]!, 10, 50, hex("#ff8000"))).toBe(true);
    expect(isColour(frames[21]!, 10, 110, hex("#00ff80"))).toBe(true);
    // c sets no `late` value: its declared default, not the CLI's or a sibling's.
    expect(isColour(frames[30]!, 10, 170, hex("#ffffff"))).toBe(true);
  });

  it("keeps the CLI's values at the top level and the instances' CSS and ids to themselves", () => {
    // The parent's own #box is white and unmoved: card.html's #box rule and timeline stay in card.html.
    for (const n of [0, 15, 30]) expect(isColour(frames[n]!, 265, 5, hex("#ffffff"))).toBe(true);
    // No magenta anywhere: --variables never reached an instance.
    for (const frame of frames) {
      for (let y = 0; y < 180; y += 10) {
        for (let x = 0; x < 320; x += 10) expect(isColour(frame, x, y, hex("#ff00ff"), 10)).toBe(false);
      }
    }
  });

  it("agrees with compose lint's metadata about where each instance starts", async () => {
    const cardDuration = extractCompositionMetadata(card).duration;
    const metadata = extractCompositionMetadata(await readFile(project.path("index.html"), "utf8"), {
      embeddedDuration: (src) => (src === "card.html" ? cardDuration : undefined),
    });
    expect(metadata.instances.map((instance) => instance.id)).toEqual(["a", "b", "c", "d"]);
    const starts = metadata.instances.map((instance) => instance.start!);
    [0, 0.5, 0.9, 0].forEach((start, i) => expect(starts[i]).toBeCloseTo(start, 9));
    const firstVisible = (y: number, colour: readonly number[]) => frames.findIndex((frame) => boxX(frame, y, colour) !== undefined) / FPS;
    expect(firstVisible(10, RED)).toBeCloseTo(0, 5);
    expect(firstVisible(70, GREEN)).toBeCloseTo(0.5, 5);
    expect(firstVisible(130, BLUE)).toBeCloseTo(0.9, 5);
  });

  it("holds an instance's last state when its host outlasts its timeline", () => {
    const YELLOW = hex("#ffff00");
    // d's card ends at 0.6 s (x = 60) but its host lasts 1.5 s.
    expect(boxX(frames[9]!, 10, YELLOW)).toBeCloseTo(110 + 30, -0.5);
    for (const n of [18, 30, 44]) expect(boxX(frames[n]!, 10, YELLOW)).toBeCloseTo(110 + 60, -0.5);
  });
});
