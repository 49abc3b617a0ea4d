/**
 * Every kind of animation a composition may use is seeked to composition time: a png-sequence
 * render shows each box exactly where a linear motion of 200 px/s puts it at the frame's time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodeAllFrames, findSpan, hex, isColour, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FPS = 30;
/** Every moving box starts at x = 20 and moves 200 px/s, linearly, for the whole second. */
const START_X = 20;
const SPEED = 200;
const ROW = 20;

/** Row order, colour and the technique that moves the box of each row. */
const MOVERS = {
  gsap: { row: 0, colour: "#ff0000" },
  keyframes: { row: 1, colour: "#00ff00" },
  transition: { row: 2, colour: "#0000ff" },
  waapi: { row: 3, colour: "#ffff00" },
  raf: { row: 4, colour: "#ff00ff" },
  perfnow: { row: 5, colour: "#00ffff" },
  datenow: { row: 6, colour: "#ff8000" },
} as const;
const TIMER = { row: 7, before: "#ffffff", after: "#0080ff" };

const boxCss = [
  ...Object.entries(MOVERS).map(
    ([id, { row, colour }]) => `#${id} { position: absolute; left: ${START_X}px; top: ${row * ROW + 2}px; width: 20px; height: 16px; background: ${colour}; }`,
  ),
  `#timer { position: absolute; left: ${START_X}px; top: ${TIMER.row * ROW + 2}px; width: 20px; height: 16px; background: ${TIMER.before}; }`,
  `@keyframes slide { from { transform: translateX(0); } to { transform: translateX(${SPEED}px); } }`,
  `#keyframes { animation: slide 1s linear both; }`,
  `#transition { transition: transform 1s linear; }`,
  `#transition.go { transform: translateX(${SPEED}px); }`,
].join("\n");

const html = compositionHtml({
  id: "anim",
  duration: 1,
  backdrop: "#000000",
  css: boxCss,
  body: [...Object.keys(MOVERS), "timer"].map((id) => `<div id="${id}"></div>`).join("\n"),
  after: `<script src="gsap.min.js"></script>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.fromTo("#gsap", { x: 0 }, { x: ${SPEED}, duration: 1, ease: "none" });
  window.__timelines["anim"] = tl;

  document.getElementById("waapi").animate(
    [{ transform: "translateX(0)" }, { transform: "translateX(${SPEED}px)" }],
    { duration: 1000, easing: "linear", fill: "both" },
  );

  // A transition started by a class change once the page has loaded.
  window.addEventListener("load", () => {
    const box = document.getElementById("transition");
    box.getBoundingClientRect();
    box.classList.add("go");
  });

  const raf = document.getElementById("raf");
  const perf = document.getElementById("perfnow");
  const date = document.getElementById("datenow");
  const dateAtLoad = Date.now();
  const perfAtLoad = performance.now();
  function frame(timestamp) {
    raf.style.transform = "translateX(" + (timestamp / 1000) * ${SPEED} + "px)";
    perf.style.transform = "translateX(" + ((performance.now() - perfAtLoad) / 1000) * ${SPEED} + "px)";
    date.style.transform = "translateX(" + ((Date.now() - dateAtLoad) / 1000) * ${SPEED} + "px)";
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  setTimeout(() => { document.getElementById("timer").style.background = "${TIMER.after}"; }, 500);
</script>`,
});

/** BeginFrame capture (the default) and the screenshot fallback must show the same motion. */
const CAPTURE_MODES = ["beginframe", "screenshot"] as const;

let project: TempProject;
const runs = new Map<string, { result: CliResult; frames: Frame[] }>();

beforeAll(async () => {
  project = await createProject({ "index.html": html }, { gsap: true });
  await limited(
    2,
    CAPTURE_MODES.map((mode) => async () => {
      const out = project.path(`out-${mode}`);
      const result = await render([project.dir, "--format", "png-sequence", "--fps", String(FPS), "--workers", "1", "--output", out], {
        env: { COMPOSE_CAPTURE_MODE: mode },
      });
      runs.set(mode, { result, frames: result.code === 0 ? await decodeAllFrames(`${out}/frame_%06d.png`) : [] });
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function expectedX(frame: number): number {
  return START_X + (SPEED * frame) / FPS;
}

describe.each(CAPTURE_MODES)("animations are seeked to each frame's composition time (COMPOSE_CAPTURE_MODE=%s)", (mode) => {
  let result: CliResult;
  let frames: Frame[];
  beforeAll(() => {
    ({ result, frames } = runs.get(mode)!);
  });

  it("renders all 30 frames", () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(frames).toHaveLength(30);
  });

  const checkedFrames = [0, 8, 15, 29];
  for (const [kind, { row, colour }] of Object.entries(MOVERS)) {
    it(`${kind}: the box is at x = 20 + 200 t (±1 px) at frames ${checkedFrames.join(", ")}`, () => {
      const y = row * ROW + ROW / 2;
      const positions = checkedFrames.map((n) => findSpan(frames[n]!, y, hex(colour))?.left);
      const expected = checkedFrames.map(expectedX);
      positions.forEach((x, i) => {
        expect(x, `${kind} at frame ${checkedFrames[i]}`).toBeDefined();
        expect(Math.abs(x! - expected[i]!), `${kind} at frame ${checkedFrames[i]}: x=${x}, expected ${expected[i]!.toFixed(2)}`).toBeLessThanOrEqual(1);
      });
      // The box keeps its size: it is drawn once, not smeared.
      const span = findSpan(frames[15]!, y, hex(colour))!;
      expect(span.right - span.left + 1).toBeGreaterThanOrEqual(19);
      expect(span.right - span.left + 1).toBeLessThanOrEqual(21);
    });
  }

  it("setTimeout(fn, 500): the colour changes exactly at frame 15 (0.5 s), not before", () => {
    const y = TIMER.row * ROW + ROW / 2;
    const colourAt = (n: number) =>
      isColour(frames[n]!, START_X + 10, y, hex(TIMER.before)) ? "before" : isColour(frames[n]!, START_X + 10, y, hex(TIMER.after)) ? "after" : "other";
    expect([0, 14, 15, 29].map(colourAt)).toEqual(["before", "before", "after", "after"]);
  });

  it("the background stays opaque black where no box is", () => {
    for (const n of [0, 29]) {
      expect(Array.from(frames[n]!.data.subarray((170 * 320 + 300) * 4, (170 * 320 + 300) * 4 + 4))).toEqual([0, 0, 0, 255]);
    }
  });
});
