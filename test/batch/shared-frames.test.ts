/**
 * `compose render --batch` captures a frame that paints the same in every row (the intro before
 * a row's text shows, the outro after it has gone) once, and every row still decodes to exactly
 * the frames its render alone makes. Run with COMPOSE_VERIFY_SHARED_FRAMES=1, the batch captures
 * each shared frame as well and fails on the first whose image differs from the row's it was
 * taken from: the fingerprint never calls two different frames the same, down to one letter.
 */
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodedFrameMd5s } from "../support/media.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { createCacheDir, generateMedia } from "../support/test-media.js";

const VARIABLES = [
  { id: "name", type: "string", label: "Name", default: "Ada Lovelace" },
  { id: "accent", type: "color", label: "Accent", default: "#ff5a36" },
];

/** The default row, one in another colour only, one whose text differs in one letter. */
const ROWS = [{}, { accent: "#3b82f6" }, { name: "Ada Lovelacf" }];

const FPS = 24;
/** 1 s: the first half second and the last quarter second are the same in every row. */
const FRAMES = FPS;
const VARYING_FRAMES = FRAMES - FPS / 2 - FPS / 4;

/** The card with the row's text and colour, hidden before 0.5 s and after 0.75 s. */
const CARD = `<div id="card"><div id="accent"></div><p id="name"></p></div>`;
const CARD_CSS = `#card { position: absolute; left: 20px; bottom: 20px; display: flex; background: #fff; }
  #accent { width: 12px; }
  #name { padding: 8px 12px; font-size: 22px; color: #101828; white-space: nowrap; }`;
const FILL_CARD = `const { name = "Ada Lovelace", accent = "#ff5a36" } = __compose.getVariables();
  document.getElementById("name").textContent = name;
  document.getElementById("accent").style.background = accent;`;

const COMPOSITIONS: Record<string, string> = {
  // A GSAP timeline: the intro's title scales in and leaves, then the card.
  "gsap.html": compositionHtml({
    id: "gsap",
    duration: 1,
    variables: VARIABLES,
    backdrop: "linear-gradient(160deg, #344054, #101828)",
    css: `#title { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; font: bold 30px sans-serif; color: #fff; }
      ${CARD_CSS}`,
    body: `<div id="title">CONFERENCE</div>${CARD}`,
    after: `<script src="gsap.min.js"></script><script>
      ${FILL_CARD}
      const tl = gsap.timeline({ paused: true });
      tl.from("#title", { scale: 0.6, opacity: 0, duration: 0.25 }, 0)
        .to("#title", { opacity: 0, y: -20, duration: 0.15 }, 0.3)
        .from("#card", { opacity: 0, x: -40, duration: 0.1 }, 0.5)
        .to("#card", { opacity: 0, duration: 0.1 }, 0.65);
      window.__timelines["gsap"] = tl;
    </script>`,
  }),
  // CSS animations, which the runtime seeks.
  "css.html": compositionHtml({
    id: "css",
    duration: 1,
    variables: VARIABLES,
    backdrop: "#202830",
    css: `#dot { position: absolute; top: 70px; left: 20px; width: 40px; height: 40px; border-radius: 50%; background: #ffb020; animation: slide 0.5s linear both; }
      @keyframes slide { from { transform: translateX(0); } to { transform: translateX(240px); opacity: 0; } }
      #card { animation: show 0.25s 0.5s linear both; }
      @keyframes show { 0% { opacity: 0; } 40% { opacity: 1; } 60% { opacity: 1; } 100% { opacity: 0; } }
      ${CARD_CSS}`,
    body: `<div id="dot"></div>${CARD}`,
    after: `<script>${FILL_CARD}</script>`,
  }),
  // A web font of the project's, in the intro and on the card.
  "font.html": compositionHtml({
    id: "font",
    duration: 1,
    variables: VARIABLES,
    backdrop: "#f4f0e8",
    css: `@font-face { font-family: "Brand"; src: url("fonts/space-mono.woff2") format("woff2"); }
      #title { position: absolute; top: 60px; left: 20px; font: 28px "Brand"; color: #222; animation: rise 0.5s ease-out both; }
      @keyframes rise { from { transform: translateY(40px); } 90% { opacity: 1; } to { transform: translateY(0); opacity: 0; } }
      #card { opacity: 0; animation: show 0.25s 0.5s linear; }
      @keyframes show { from, to { opacity: 1; } }
      ${CARD_CSS}
      #name { font-family: "Brand"; }`,
    body: `<div id="title">Welcome</div>${CARD}`,
    after: `<script>${FILL_CARD}</script>`,
  }),
  // An image of the project's crossing the frame.
  "image.html": compositionHtml({
    id: "image",
    duration: 1,
    variables: VARIABLES,
    backdrop: "#0b1020",
    css: `#logo { position: absolute; top: 60px; left: 0; width: 80px; height: 45px; animation: cross 0.5s ease-in-out both; }
      @keyframes cross { from { transform: translateX(-80px); } to { transform: translateX(320px); } }
      #card { animation: show 0.25s 0.5s linear both; }
      @keyframes show { 0% { opacity: 0; } 50% { opacity: 1; } 100% { opacity: 0; } }
      ${CARD_CSS}`,
    body: `<img id="logo" src="media/picture.png">${CARD}`,
    after: `<script>${FILL_CARD}</script>`,
  }),
};

interface FinishedEvent {
  type: "finished";
  row: number;
  frames: number;
  stats: { reused: number; shared: number };
}

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const run = (args: string[], env: Record<string, string> = {}) =>
  render(["--quality", "draft", "--fps", String(FPS), ...args], { cwd: project.dir, env: { ...cache.env, ...env }, timeoutMs: 120_000 });

beforeAll(async () => {
  project = await createProject({ ...COMPOSITIONS, "rows.json": JSON.stringify(ROWS) }, { gsap: true });
  await generateMedia(project.dir, ["picture"]);
  await mkdir(project.path("fonts"));
  await copyFile(join(REPO_ROOT, "node_modules/@fontsource/space-mono/files/space-mono-latin-400-normal.woff2"), project.path("fonts", "space-mono.woff2"));
  cache = await createCacheDir();
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

describe("compose render --batch, frames every row paints alike", () => {
  it.each(Object.keys(COMPOSITIONS))(
    "%s: captures them once, checked against a capture of each, and every row decodes as its render alone",
    async (file) => {
      const name = file.replace(".html", "");
      const batch = await run([project.path(file), "--batch", "rows.json", "-o", `${name}/batch-{index}.mp4`, "--batch-concurrency", "1", "--json"], {
        COMPOSE_VERIFY_SHARED_FRAMES: "1",
      });
      expect(batch.code, batch.stderr).toBe(0);
      const finished = lines(batch.stdout)
        .map((line) => JSON.parse(line) as FinishedEvent | { type: string })
        .filter((event): event is FinishedEvent => event.type === "finished")
        .sort((a, b) => a.row - b.row);
      expect(finished.map((event) => event.frames)).toEqual([FRAMES, FRAMES, FRAMES]);
      const captured = finished.map((event) => event.frames - event.stats.reused - event.stats.shared);
      // The first row captures every frame that changed; the others only what shows their own
      // values, taking the rest from it.
      expect(finished[0]!.stats.shared).toBe(0);
      for (const row of [1, 2]) {
        expect(finished[row]!.stats.shared, `row ${row + 1}`).toBeGreaterThan(0);
        expect(captured[row], `row ${row + 1}`).toBeLessThanOrEqual(VARYING_FRAMES);
        expect(captured[row]! + finished[row]!.stats.shared, `row ${row + 1}`).toBe(captured[0]);
      }

      const decoded: string[][] = [];
      for (const [index, row] of ROWS.entries()) {
        const single = await run([project.path(file), "--variables", JSON.stringify(row), "-o", `${name}/single-${index + 1}.mp4`]);
        expect(single.code, single.stderr).toBe(0);
        const [fromBatch, alone] = await Promise.all([
          decodedFrameMd5s(project.path(name, `batch-${index + 1}.mp4`)),
          decodedFrameMd5s(project.path(name, `single-${index + 1}.mp4`)),
        ]);
        expect(fromBatch, `row ${index + 1}`).toEqual(alone);
        decoded.push(fromBatch);
      }
      // The rows do differ where they show their values: the colour, and the one letter.
      expect(decoded[1]).not.toEqual(decoded[0]);
      expect(decoded[2]).not.toEqual(decoded[0]);
    },
    240_000,
  );

  it("counts what paints by reference from an invisible subtree: a gradient there that a row colours", async () => {
    await writeFile(
      project.path("gradient.html"),
      compositionHtml({
        id: "gradient",
        duration: 1,
        variables: VARIABLES,
        backdrop: "#101010",
        css: `#defs { opacity: 0; position: absolute; } #shape { position: absolute; top: 0; left: 0; } #name { position: absolute; top: 120px; left: 20px; font: 20px sans-serif; color: #fff; opacity: 0; animation: show 0.25s 0.5s linear; }
          @keyframes show { from, to { opacity: 1; } }`,
        body: `<div id="defs"><svg width="0" height="0"><linearGradient id="fill"><stop id="stop" offset="0"/><stop offset="1" stop-color="#fff"/></linearGradient></svg></div>
          <svg id="shape" width="320" height="100"><rect width="320" height="100" fill="url(#fill)"/></svg><p id="name"></p>`,
        after: `<script>
          const { name = "Ada Lovelace", accent = "#ff5a36" } = __compose.getVariables();
          document.getElementById("stop").setAttribute("stop-color", accent);
          document.getElementById("name").textContent = name;
        </script>`,
      }),
    );
    // The row with another letter before the one in another colour, which unshares every frame it paints otherwise.
    await writeFile(project.path("gradient-rows.json"), JSON.stringify([ROWS[0], ROWS[2], ROWS[1]]));
    const batch = await run(
      [project.path("gradient.html"), "--batch", "gradient-rows.json", "-o", "gradient/{index}.mp4", "--batch-concurrency", "1", "--json"],
      { COMPOSE_VERIFY_SHARED_FRAMES: "1" },
    );
    expect(batch.code, batch.stderr).toBe(0);
    const shared = lines(batch.stdout)
      .map((line) => JSON.parse(line) as FinishedEvent | { type: string })
      .filter((event): event is FinishedEvent => event.type === "finished")
      .sort((a, b) => a.row - b.row)
      .map((event) => event.stats.shared);
    // The row in another colour paints every frame otherwise; the row with another letter only the text's.
    expect(shared[1]).toBeGreaterThan(0);
    expect(shared[2]).toBe(0);
  }, 120_000);

  it("with --no-shared-frames, captures every row's every frame", async () => {
    // The second row shares the frames before and after the card when sharing is on (the first test).
    await writeFile(project.path("pair.json"), JSON.stringify(ROWS.slice(0, 2)));
    const batch = await run([project.path("gsap.html"), "--batch", "pair.json", "-o", "unshared/{index}.mp4", "--no-shared-frames", "--json"]);
    expect(batch.code, batch.stderr).toBe(0);
    const finished = lines(batch.stdout)
      .map((line) => JSON.parse(line) as FinishedEvent | { type: string })
      .filter((event): event is FinishedEvent => event.type === "finished");
    expect(finished.map((event) => event.stats.shared)).toEqual([0, 0]);
  }, 120_000);
});
