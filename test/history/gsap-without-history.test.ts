/**
 * GSAP's ticker keeps a requestAnimationFrame pending, but a composition whose GSAP animations are
 * registered timelines, driven by seek, is a function of time like CSS and Web Animations, clips
 * and timers: a second worker replays nothing and still gives the frames of one worker. A tween
 * left playing on GSAP's ticker, or a listener on the ticker, is a frame loop: it is replayed.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { boxX, decodeAllFrames, hex } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FRAMES = 18;
const LANE = (top: number, colour: string) => `position: absolute; left: 0; top: ${top}px; width: 12px; height: 14px; background: ${colour};`;

/** A registered GSAP timeline, a CSS animation, a Web Animation, a clip and an interval timer. */
const timeless = compositionHtml({
  id: "timeless",
  duration: FRAMES / 30,
  backdrop: "#000000",
  css: `#gsap { ${LANE(10, "#ff0000")} }
        #css { ${LANE(30, "#00ff00")} animation: go 0.6s linear both; }
        @keyframes go { to { transform: translateX(240px); } }
        #waapi { ${LANE(50, "#0000ff")} }
        #clip { ${LANE(70, "#ffff00")} }
        #timer { ${LANE(90, "#ff00ff")} }`,
  head: `<script src="gsap.min.js"></script>`,
  body: `<div id="gsap"></div><div id="css"></div><div id="waapi"></div>
         <div id="clip" data-start="0.2" data-duration="0.2"></div><div id="timer"></div>`,
  after: `<script>
    const tl = gsap.timeline({ paused: true });
    tl.to("#gsap", { x: 240, duration: 0.6, ease: "none" }, 0);
    window.__timelines.timeless = tl;
    document.getElementById("waapi").animate([{ transform: "translateX(0)" }, { transform: "translateX(240px)" }], { duration: 600, fill: "both" });
    let ticks = 0;
    setInterval(() => { ticks++; document.getElementById("timer").style.transform = "translateX(" + 40 * ticks + "px)"; }, 100);
  </script>`,
});

/** One white box that `script` moves with GSAP outside any registered timeline. */
const boxMovedBy = (id: string, script: string) =>
  compositionHtml({
    id,
    duration: FRAMES / 30,
    backdrop: "#000000",
    css: `#box { ${LANE(10, "#ffffff")} }`,
    head: `<script src="gsap.min.js"></script>`,
    body: `<div id="box"></div>`,
    after: `<script>${script}</script>`,
  });

/**
 * A tween on GSAP's ticker whose onComplete starts another: the second starts at the global
 * timeline's time when the first completes, which a page jumped to a later frame would not know.
 */
const playing = boxMovedBy(
  "playing",
  `gsap.to("#box", { x: 100, duration: 0.25, ease: "none", onComplete: () => gsap.to("#box", { x: 250, duration: 0.25, ease: "none" }) });`,
);

/** A listener on GSAP's ticker that counts frames. */
const listener = boxMovedBy(
  "listener",
  `let frames = 0;
   gsap.ticker.add(() => { frames++; document.getElementById("box").style.transform = "translateX(" + 10 * frames + "px)"; });`,
);

const RUNS = {
  "timeless-w1": ["timeless.html", "1"],
  "timeless-w3": ["timeless.html", "3"],
  "playing-w1": ["playing.html", "1"],
  "playing-w2": ["playing.html", "2"],
  "listener-w1": ["listener.html", "1"],
  "listener-w2": ["listener.html", "2"],
} as const;
type Run = keyof typeof RUNS;

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject({ "timeless.html": timeless, "playing.html": playing, "listener.html": listener }, { gsap: true });
  await limited(
    2,
    Object.entries(RUNS).map(([name, [file, workers]]) => async () => {
      results.set(name, await render([project.path(file), "--format", "png-sequence", "--workers", workers, "--output", project.path(name)]));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

async function frames(name: Run): Promise<Buffer[]> {
  const result = results.get(name)!;
  expect(result.stderr, `${name} stderr`).toBe("");
  expect(result.code, `${name} exit code`).toBe(0);
  const names = (await readdir(project.path(name))).filter((file) => file.endsWith(".png")).sort();
  expect(names).toHaveLength(FRAMES);
  return Promise.all(names.map((file) => readFile(join(project.path(name), file))));
}

async function differing(one: Run, many: Run): Promise<number[]> {
  const [a, b] = await Promise.all([frames(one), frames(many)]);
  return a.flatMap((bytes, n) => (b[n]!.equals(bytes) ? [] : [n]));
}

describe("GSAP and history", () => {
  it("replays nothing for registered timelines, CSS and Web Animations, clips and timers", async () => {
    expect(await differing("timeless-w1", "timeless-w3"), "frames that differ from --workers 1").toEqual([]);
    expect(results.get("timeless-w3")!.stdout).not.toMatch(/Replayed/);
    const decoded = await decodeAllFrames(join(project.path("timeless-w3"), "frame_%06d.png"));
    // Frame 12 (0.4 s), the first of the third worker: every lane where time 0.4 s puts it.
    expect([17, 37, 57].map((y) => boxX(decoded[12]!, y, hex(["#ff0000", "#00ff00", "#0000ff"][(y - 17) / 20]!), 60))).toEqual([160, 160, 160]);
    expect(boxX(decoded[12]!, 97, hex("#ff00ff"), 60)).toBe(160);
  });

  it("replays a tween left playing on GSAP's ticker, and gives the frames of one worker", async () => {
    expect(await differing("playing-w1", "playing-w2"), "frames that differ from --workers 1").toEqual([]);
    expect(results.get("playing-w2")!.stdout).toMatch(/^Replayed 9 frames of history/m);
  });

  it("replays a listener on GSAP's ticker, and gives the frames of one worker", async () => {
    expect(await differing("listener-w1", "listener-w2"), "frames that differ from --workers 1").toEqual([]);
    expect(results.get("listener-w2")!.stdout).toMatch(/^Replayed 9 frames of history/m);
  });
});
