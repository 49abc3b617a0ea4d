/// <reference lib="dom" />
/**
 * examples/player, served by a plain static server from the repository, in chromium and
 * firefox-esr: it plays examples/lower-third with no error, and a value typed in its form shows in
 * the composition.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/project.js";
import { PLAYER_IDLE } from "../support/player-project.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { BROWSERS, openWebPage, type WebPage } from "../support/web-browsers.js";

let server: StaticServer;

beforeAll(async () => {
  server = await serveStatic(REPO_ROOT);
});

afterAll(async () => {
  await server?.close();
});

/** Runs in the page: the lower third's name as the frame the player shows has it. */
const SHOWN_NAME = `() => document.getElementById("player").shadowRoot.querySelector("iframe.composition:not(.loading)").contentDocument.getElementById("name").textContent`;

describe.each(BROWSERS)("examples/player in %s", (browser) => {
  let web: WebPage;

  beforeAll(async () => {
    web = await openWebPage(browser, `${server.url}examples/player/`);
    await web.run(PLAYER_IDLE, "#player");
  }, 60_000);

  afterAll(async () => {
    await web?.close();
  });

  it("plays the lower third, without an error", async () => {
    expect(await web.run(`() => { const p = document.getElementById("player"); return { duration: p.duration, error: p.error }; }`)).toEqual({
      duration: 3,
      error: null,
    });
    expect(await web.run(SHOWN_NAME)).toBe("Ada Lovelace");
  });

  it("shows a name typed in its form", async () => {
    await web.page.click("input[name=name]", { count: 3 });
    await web.page.keyboard.type("Grace Hopper");
    await web.run(PLAYER_IDLE, "#player");
    expect(await web.run(SHOWN_NAME)).toBe("Grace Hopper");
  });
});
