/// <reference lib="dom" />
/**
 * <compose-player> in a plain page of a static web server, in Debian's chromium and firefox-esr:
 * the frame it shows at 1.5 s is the frame `compose render --time 1.5` makes (GSAP, a Web
 * Animation, text, a sub-composition instance whose document the runtime writes in too); it seeks
 * frame-exactly by property and keyboard, plays with its events, shows new variable values as soon
 * as it says they are loaded, and reports failures with render's codes.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RENDER_ERROR_CODES } from "@compose/core";
import { runCli } from "../support/cli.js";
import { compositionHtml, REPO_ROOT, type TempProject } from "../support/project.js";
import { createPlayerSite, PLAYER_IDLE, playerPage } from "../support/player-project.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { BROWSERS, FRAME_BOUND, frameDifference, keepFrames, openWebPage, type WebPage } from "../support/web-browsers.js";

const VARIABLES = [
  { id: "title", type: "string", label: "Title", default: "Hello player" },
  { id: "accent", type: "color", label: "Accent", default: "#ff5a36" },
];

/**
 * 320x180, 2 s: a title and a bar moved by GSAP, a box turned by a Web Animation, a card embedded
 * from 0.5 s. The title's font comes with the composition, as a web font: a font of the system is
 * drawn with the hinting of the browser at hand, which render leaves off.
 */
const COMPOSITION = compositionHtml({
  id: "played",
  duration: 2,
  variables: VARIABLES,
  backdrop: "linear-gradient(135deg, #101828, #344054)",
  css: `@font-face { font-family: "Title"; src: url(title.woff2) format("woff2-variations"); font-weight: 100 900; }
  #title { position: absolute; left: 16px; top: 16px; font: bold 26px "Title"; color: #ffffff; white-space: nowrap; }
  #bar { position: absolute; left: 16px; top: 64px; width: 40px; height: 14px; }
  #spin { position: absolute; left: 30px; top: 110px; width: 40px; height: 40px; background: #20c0f0; }
  #card { position: absolute; left: 190px; top: 100px; width: 100px; height: 60px; }`,
  head: `<script src="gsap.min.js"></script>`,
  body: `<div id="title"></div><div id="bar"></div><div id="spin"></div>
<div id="card" data-composition-id="card-a" data-composition-src="card.html" data-start="0.5"></div>`,
  after: `<script>
  const { title = "Hello player", accent = "#ff5a36" } = __compose.getVariables();
  document.getElementById("title").textContent = title;
  document.getElementById("bar").style.background = accent;
  const tl = gsap.timeline({ paused: true });
  tl.from("#title", { x: -120, opacity: 0, duration: 0.8, ease: "power2.out" }).to("#bar", { width: 260, duration: 1.2, ease: "none" }, 0.4);
  window.__timelines["played"] = tl;
  document.getElementById("spin").animate([{ transform: "rotate(0deg)" }, { transform: "rotate(180deg)" }], { duration: 2000, fill: "both" });
</script>`,
});

const CARD = compositionHtml({
  id: "card",
  width: 100,
  height: 60,
  duration: 1.5,
  backdrop: "#40a040",
  body: `<div id="dot" style="position: absolute; left: 0; top: 20px; width: 20px; height: 20px; background: #102010"></div>`,
  after: `<script>document.getElementById("dot").animate([{ left: "0px" }, { left: "80px" }], { duration: 1500, fill: "both" });</script>`,
});

const BROKEN = compositionHtml({ id: "broken", duration: 1, body: `<img id="logo" src="missing.png" data-start="0" data-duration="1">` });

let site: TempProject;
let server: StaticServer;
let rendered: PNG;

beforeAll(async () => {
  site = await createPlayerSite(
    {
      "index.html": playerPage(`<compose-player id="player" src="comp/index.html" style="width: 320px; height: 180px"></compose-player>`),
      "comp/index.html": COMPOSITION,
      "comp/card.html": CARD,
      "broken/index.html": BROKEN,
      "comp/title.woff2": await readFile(join(REPO_ROOT, "node_modules/@fontsource-variable/montserrat/files/montserrat-latin-wght-normal.woff2")),
      "errors.html":
        playerPage(`<compose-player id="absent" src="nowhere/index.html"></compose-player><compose-player id="broken" src="broken/index.html"></compose-player>
<script>
  // Listening before the player's module runs: what it reports while loading is heard.
  window.reported = {};
  for (const player of document.querySelectorAll("compose-player")) {
    reported[player.id] = [];
    player.addEventListener("error", (event) => reported[player.id].push(event.detail));
  }
</script>`),
    },
    { prefix: "compose-player-", gsapIn: ["comp"] },
  );
  server = await serveStatic(site.dir);
  const output = site.path("render-1.5.png");
  const render = await runCli(["render", site.path("comp"), "--time", "1.5", "-o", output], { timeoutMs: 120_000 });
  expect(render.code, render.stderr).toBe(0);
  rendered = PNG.sync.read(await readFile(output));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await site?.remove();
});

/** Runs in the page: what the player says of itself. */
const STATE = `(selector) => { const p = document.querySelector(selector); return { frame: p.currentFrame, time: p.currentTime, duration: p.duration, totalFrames: p.totalFrames, paused: p.paused }; }`;

describe.each(BROWSERS)("<compose-player> in %s", (browser) => {
  let web: WebPage;

  beforeAll(async () => {
    web = await openWebPage(browser, server.url);
    await web.run(PLAYER_IDLE, "#player");
  }, 60_000);

  afterAll(async () => {
    await web?.close();
  });

  it("shows at 1.5 s the frame compose render makes at 1.5 s", async () => {
    await web.run(`(selector) => { document.querySelector(selector).currentTime = 1.5; }`, "#player");
    await web.run(PLAYER_IDLE, "#player");
    expect(await web.run(STATE, "#player")).toEqual({ frame: 45, time: 1.5, duration: 2, totalFrames: 60, paused: true });
    const shown = await web.screenshot("#player");
    const difference = frameDifference(shown, rendered);
    console.log(
      `${browser}: the player's frame at 1.5 s against render's: mean difference ${difference.mean.toFixed(3)} per channel, ${(difference.farShare * 100).toFixed(3)} % of pixels off by more than 64`,
    );
    if (difference.mean > FRAME_BOUND.mean || difference.farShare > FRAME_BOUND.farShare)
      console.log(`${browser}: both frames kept in ${await keepFrames({ player: shown, render: rendered })}`);
    expect(difference.mean, `mean difference per channel ${difference.mean.toFixed(3)}`).toBeLessThanOrEqual(FRAME_BOUND.mean);
    expect(difference.farShare, `share of pixels off by more than 64: ${(difference.farShare * 100).toFixed(3)} %`).toBeLessThanOrEqual(FRAME_BOUND.farShare);
    // The card's instance ran the runtime in a document the runtime wrote in: it was seeked to its
    // own 1 s (layout rounds to 1/64 px).
    const dot = await web.run<number>(
      `(selector) => document.querySelector(selector).shadowRoot.querySelector("iframe.composition:not(.loading)").contentDocument.querySelector("#card iframe").contentDocument.getElementById("dot").getBoundingClientRect().left`,
      "#player",
    );
    expect(Math.abs(dot - 80 * (1 / 1.5))).toBeLessThan(1 / 64);
  });

  it("seeks frame by frame with the keyboard when focused, and plays and pauses with space", async () => {
    await web.page.focus("#player");
    await web.page.keyboard.press("ArrowRight");
    await web.run(PLAYER_IDLE, "#player");
    expect((await web.run<{ frame: number }>(STATE, "#player")).frame).toBe(46);
    await web.page.keyboard.down("Shift");
    await web.page.keyboard.press("ArrowLeft");
    await web.page.keyboard.up("Shift");
    await web.run(PLAYER_IDLE, "#player");
    expect((await web.run<{ frame: number }>(STATE, "#player")).frame).toBe(16);
    await web.page.keyboard.press(" ");
    expect((await web.run<{ paused: boolean }>(STATE, "#player")).paused).toBe(false);
    await web.page.keyboard.press(" ");
    expect((await web.run<{ paused: boolean }>(STATE, "#player")).paused).toBe(true);
  });

  it("plays frame after frame to the end with its events: play, timeupdate for each frame, pause, ended", async () => {
    const events = await web.run<string[]>(
      `async (selector) => {
        const player = document.querySelector(selector);
        player.currentFrame = 50;
        await player.whenIdle();
        const seen = [];
        for (const type of ["play", "pause", "ended", "timeupdate"]) player.addEventListener(type, () => seen.push(type === "timeupdate" ? "frame " + player.currentFrame : type));
        const ended = new Promise((resolve) => player.addEventListener("ended", resolve, { once: true }));
        player.play();
        await ended;
        return seen;
      }`,
      "#player",
    );
    expect(events).toEqual(["play", ...[51, 52, 53, 54, 55, 56, 57, 58, 59].map((frame) => `frame ${frame}`), "pause", "ended"]);
  });

  it("shows new variable values in the first frame painted after it says they are loaded", async () => {
    const seen = await web.run<{ title: string; visible: number; loadMs: number }>(
      `async (selector) => {
        const player = document.querySelector(selector);
        player.currentTime = 1.5;
        await player.whenIdle();
        const started = performance.now();
        const ready = new Promise((resolve) => player.addEventListener("ready", resolve, { once: true }));
        player.variables = { title: "Changed title", accent: "#00ff00" };
        await ready;
        const loadMs = performance.now() - started;
        // What the next frame paints: the frames of the player that are not hidden.
        return new Promise((resolve) => requestAnimationFrame(() => {
          const frames = [...player.shadowRoot.querySelectorAll("iframe")].filter((frame) => getComputedStyle(frame).visibility !== "hidden" && !frame.classList.contains("loading"));
          resolve({ title: frames.at(-1).contentDocument.getElementById("title").textContent, visible: frames.length, loadMs });
        }));
      }`,
      "#player",
    );
    expect(seen).toMatchObject({ title: "Changed title", visible: 1 });
    console.log(`${browser}: variables shown ${seen.loadMs.toFixed(0)} ms after they were set`);
    await web.run(`() => new Promise((resolve) => requestAnimationFrame(resolve))`);
    const shot = await web.screenshot("#player");
    // The bar, grown to 16 + 2/3 of 260 px at 1.5 s, in the new accent colour.
    const i = (70 * shot.width + 100) * 4;
    expect([...shot.data.subarray(i, i + 3)]).toEqual([0, 255, 0]);
    expect(await web.run(STATE, "#player")).toMatchObject({ frame: 45 });
  });

  it("reports what fails with render's codes: a file not found, an image that does not load", async () => {
    await web.page.goto(`${server.url}errors.html`);
    const errors = await web.run<Record<string, Array<{ code: string; message: string }>>>(
      `async () => {
        await customElements.whenDefined("compose-player");
        await Promise.all(["absent", "broken"].map((id) => document.getElementById(id).whenIdle()));
        return window.reported;
      }`,
    );
    expect(errors.absent).toEqual([{ code: "invalid-composition", message: expect.stringMatching(/nowhere\/index\.html could not be loaded \(HTTP 404\)$/) }]);
    expect(errors.broken).toEqual([{ code: "missing-asset", message: "image broken/missing.png failed to load (requested by broken/index.html)" }]);
    for (const error of [...errors.absent!, ...errors.broken!]) expect(RENDER_ERROR_CODES).toContain(error.code);
  });
});
