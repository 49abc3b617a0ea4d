import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOW_RESPONSE_MS, startHarness, type Harness } from "../test/page-harness.js";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

async function seek(page: Page, t: number): Promise<void> {
  await page.evaluate((time) => window.__compose!.seek(time), t);
}

describe("clip visibility", () => {
  const CLIPS = `<!doctype html>
  <div id="stage" data-composition-id="clips" data-width="320" data-height="180">
    <div id="intro" data-start="0" data-duration="1"><span id="intro-child">intro</span></div>
    <div id="next" data-start="intro + 0.5" data-duration="1">next</div>
    <div id="open-ended" data-start="2">open</div>
    <div id="styled" data-start="1" data-duration="1" style="visibility: visible">
      <b id="styled-child" style="visibility: visible">styled</b>
    </div>
    <div id="scripted" data-start="0">set by a script</div>
    <video id="video" data-start="3"></video>
    <div id="untimed">always</div>
  </div>
  <script>document.getElementById("scripted").dataset.duration = "0.5";</script>`;
  const IDS = ["intro", "intro-child", "next", "open-ended", "styled", "styled-child", "scripted", "video", "untimed"];

  async function visible(page: Page): Promise<string[]> {
    return page.evaluate((ids) => ids.filter((id) => getComputedStyle(document.getElementById(id)!).visibility === "visible"), IDS);
  }

  it("shows each clip in [start, start + duration), resolving relative starts on the live DOM", async () => {
    const page = await harness.open(CLIPS);
    const expected: Array<[number, string[]]> = [
      [0, ["intro", "intro-child", "scripted", "untimed"]],
      [0.5, ["intro", "intro-child", "untimed"]],
      [1, ["styled", "styled-child", "untimed"]],
      [1.5, ["next", "styled", "styled-child", "untimed"]],
      [2, ["next", "open-ended", "untimed"]],
      [2.5, ["open-ended", "untimed"]],
      // A video is a clip too: it shows the renderer's frames from its start on.
      [60, ["open-ended", "video", "untimed"]],
    ];
    for (const [t, ids] of expected) {
      await seek(page, t);
      expect(await visible(page), `t=${t}`).toEqual(ids);
    }
    // Backward and repeated seeks give the same answer.
    for (const [t, ids] of [...expected].reverse()) {
      await seek(page, t);
      await seek(page, t);
      expect(await visible(page), `t=${t}`).toEqual(ids);
    }
    await page.close();
  });

  it("reports size and duration, the latter from the last clip end when data-duration is absent", async () => {
    const page = await harness.open(CLIPS, { ready: false });
    expect(await page.evaluate(() => window.__compose!.ready())).toEqual({
      width: 320,
      height: 180,
      duration: 2.5,
      durationSource: "clips",
      timingErrors: [],
      paintedBackgrounds: [],
      unavailableGraphics: [],
      box: { width: 320, height: 180, hidden: false },
      needsHistory: false,
    });
    await page.close();

    const declared = await harness.open(`<div data-composition-id="d" data-width="640" data-height="360" data-duration="7"><div data-start="a"></div></div>`, {
      ready: false,
    });
    const info = await declared.evaluate(() => window.__compose!.ready());
    expect(info).toMatchObject({ width: 640, height: 360, duration: 7 });
    expect(info.timingErrors.map((error) => error.code)).toEqual(["unknown-reference"]);
    await declared.close();
  });

  it("refuses a page without a composition element", async () => {
    const page = await harness.open("<p>no composition</p>", { ready: false });
    await expect(page.evaluate(() => window.__compose!.ready())).rejects.toThrow(/data-composition-id/);
    await page.close();
  });
});

describe("variables", () => {
  const DECLARATIONS = JSON.stringify([
    { id: "title", type: "string", label: "Title", default: "Hello" },
    { id: "count", type: "number", label: "Count", default: 3 },
    { id: "loud", type: "boolean", label: "Loud", default: false },
  ]);
  const CARD = `<html data-composition-variables='${DECLARATIONS}'>
  <div data-composition-id="card" data-width="320" data-height="180"><p id="title"></p></div>
  <script>
    const { title = "Hello", count = 3 } = __compose.getVariables();
    document.getElementById("title").textContent = title + " x" + count;
  </script></html>`;

  it("merges declared defaults with the CLI overrides", async () => {
    const defaults = await harness.open(CARD);
    expect(await defaults.evaluate(() => window.__compose!.getVariables())).toEqual({ title: "Hello", count: 3, loud: false });
    expect(await defaults.$eval("#title", (element) => element.textContent)).toBe("Hello x3");
    await defaults.close();

    const overridden = await harness.open(CARD, { config: { variables: { title: "Hi", loud: true } } });
    expect(await overridden.evaluate(() => window.__compose!.getVariables())).toEqual({ title: "Hi", count: 3, loud: true });
    expect(await overridden.$eval("#title", (element) => element.textContent)).toBe("Hi x3");
    await overridden.close();
  });

  it("reads declarations from the composition element when <html> has none", async () => {
    const page = await harness.open(
      `<div data-composition-id="own" data-width="320" data-height="180"
        data-composition-variables='[{"id":"mood","type":"enum","label":"Mood","default":"calm","options":[{"value":"calm","label":"Calm"},{"value":"loud","label":"Loud"}]}]'></div>`,
    );
    expect(await page.evaluate(() => window.__compose!.getVariables())).toEqual({ mood: "calm" });
    await page.close();
  });

  it("gives a sub-composition frame its host's values, not the CLI's", async () => {
    const page = await harness.open(
      `<html data-composition-variables='[{"id":"title","type":"string","label":"T","default":"Top"}]'>
      <div data-composition-id="main" data-width="320" data-height="180">
        <div data-composition-id="first" data-composition-src="card.html" data-variable-values='{"count": 5}'></div>
        <div data-composition-id="second" data-composition-src="card.html" data-variable-values='{"title": "Second"}'></div>
        <div data-composition-id="broken" data-composition-src="card.html" data-variable-values='{"title": }'></div>
      </div></html>`,
      { config: { variables: { title: "From the CLI" } }, files: { "/card.html": CARD } },
    );
    // ready() mounts each host's composition in an iframe of its own.
    await page.evaluate(() => window.__compose!.ready());
    expect(await page.evaluate(() => window.__compose!.getVariables())).toEqual({ title: "From the CLI" });
    // The instances' frames in the hosts' document order: the order puppeteer learns of frames is
    // the order they attached, which a busy machine may change.
    const instances = await page.evaluate(() =>
      [...document.querySelectorAll("iframe")].map((frame) => ({
        title: frame.contentDocument!.getElementById("title")!.textContent,
        errors: (frame.contentWindow as Window).__compose!.errors.map((error) => error.message),
      })),
    );
    expect(instances.map((instance) => instance.title)).toEqual(["Hello x5", "Second x3", "Hello x3"]);
    const brokenErrors = instances[2]!.errors;
    expect(brokenErrors).toEqual([expect.stringMatching(/data-variable-values of "broken" is not valid JSON/)]);
    await page.close();
  });
});

describe("seek waits for the frame to be ready", () => {
  it("awaits onSeek promises and images", async () => {
    const page = await harness.open(
      `<div data-composition-id="w" data-width="320" data-height="180">
        <p id="fetched"></p><p id="zero"></p><img id="late">
      </div>
      <script>
        __compose.onSeek(async (t) => {
          const text = await (await fetch("slow/word.txt")).text();
          document.getElementById("fetched").textContent = text + "@" + t;
        });
        __compose.onSeek(async (t) => {
          await new Promise((resolve) => setTimeout(resolve, 0));
          document.getElementById("zero").textContent = "zero@" + t;
        });
        setTimeout(() => { document.getElementById("late").src = "slow/dot.svg"; }, 500);
      </script>`,
      {
        files: {
          "/slow/word.txt": "fetched",
          "/slow/dot.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="8"></svg>',
        },
      },
    );
    const started = Date.now();
    await seek(page, 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_RESPONSE_MS);
    expect(
      await page.evaluate(() => ({
        fetched: document.getElementById("fetched")!.textContent,
        zero: document.getElementById("zero")!.textContent,
        image: (document.getElementById("late") as HTMLImageElement).naturalWidth,
      })),
    ).toEqual({ fetched: "fetched@1", zero: "zero@1", image: 12 });
    await page.close();
  });

  it("rejects when an onSeek handler fails, and keeps seeking afterwards", async () => {
    const page = await harness.open(`<div data-composition-id="f" data-width="320" data-height="180"></div>
      <script>__compose.onSeek((t) => { if (t === 1) throw new Error("cannot draw frame " + t); });</script>`);
    await expect(seek(page, 1)).rejects.toThrow(/cannot draw frame 1/);
    await expect(seek(page, 2)).resolves.toBeUndefined();
    await expect(seek(page, -1)).rejects.toThrow(/0 or more/);
    await page.close();
  });
});

describe("page errors", () => {
  it("collects uncaught errors and rejections with their source, from load and from seek", async () => {
    const page = await harness.open(`<div data-composition-id="e" data-width="320" data-height="180"></div>
<script>
throw new TypeError("load failed");
</script>
<script>
Promise.reject(new Error("nobody waited"));
setTimeout(() => { throw new Error("timer failed"); }, 500);
requestAnimationFrame(() => { throw new Error("frame failed"); });
</script>`);
    await seek(page, 1);
    const errors = await page.evaluate(() => window.__compose!.errors);
    expect(errors.map(({ kind, message }) => ({ kind, message }))).toEqual([
      { kind: "error", message: "Uncaught TypeError: load failed" },
      { kind: "unhandledrejection", message: "Uncaught (in promise) Error: nobody waited" },
      { kind: "error", message: "Uncaught Error: timer failed" },
      { kind: "error", message: "Uncaught Error: frame failed" },
    ]);
    expect(errors[0]).toMatchObject({ source: expect.stringMatching(/\/index\.html$/), line: 3 });
    expect(errors[2]!.stack).toMatch(/timer failed/);
    await page.close();
  });
});
