/// <reference lib="dom" />
/**
 * compose preview in a real browser: Debian's chromium driven by playwright-core loads the preview
 * page, scrubs, plays, edits variables, copies the render command, and sees lint findings and file
 * changes. What the composition frame shows is read back as element positions and screen pixels.
 */
import { writeFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG } from "pngjs";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const VARIABLES = [
  { id: "title", type: "string", label: "Title text", default: "Hello", placeholder: "Say something", maxLength: 24 },
  { id: "boxColor", type: "color", label: "Box colour", default: "#ff0000" },
  { id: "size", type: "number", label: "Box size", default: 40, min: 20, max: 80, step: 5, unit: "px" },
  { id: "showTitle", type: "boolean", label: "Show title", default: true },
  {
    id: "mood",
    type: "enum",
    label: "Mood",
    default: "calm",
    options: [
      { value: "calm", label: "Calm and slow" },
      { value: "loud", label: "Loud and fast" },
    ],
  },
];

/** 320x180, 2 s: a box moving from x=0 to x=200 (linear, Web Animation), coloured by a variable; a card embedded. */
function indexHtml(marker = "first version"): string {
  return compositionHtml({
    id: "main",
    duration: 2,
    variables: VARIABLES,
    css: `#box { position: absolute; left: 0; top: 70px; width: 40px; height: 40px; }
  #title { position: absolute; left: 10px; top: 10px; font: 16px sans-serif; }
  #marker { position: absolute; left: 10px; top: 150px; font: 12px sans-serif; }
  #card { position: absolute; left: 200px; top: 10px; width: 100px; height: 40px; }`,
    body: `<div id="box"></div><div id="title"></div><div id="marker">${marker}</div>
<div id="card" data-composition-id="card-a" data-composition-src="card.html" data-start="0"
     data-variable-values='{"label": "Card A", "typo": 1}'></div>`,
    after: `<script>
  const { title = "Hello", boxColor = "#ff0000", showTitle = true } = __compose.getVariables();
  const box = document.getElementById("box");
  box.style.background = boxColor;
  box.animate([{ transform: "translateX(0px)" }, { transform: "translateX(200px)" }], { duration: 2000, easing: "linear", fill: "both" });
  document.getElementById("title").textContent = showTitle ? title : "";
</script>`,
  });
}

const CARD_HTML = compositionHtml({
  id: "card",
  width: 100,
  height: 40,
  duration: 2,
  variables: [{ id: "label", type: "string", label: "Label", default: "Card" }],
  body: `<p id="label"></p>`,
  after: `<script>document.getElementById("label").textContent = __compose.getVariables().label ?? "Card";</script>`,
});

let project: TempProject;
let preview: PreviewSession;
let url: string;
let page: Page;
let settled: PreviewSession["settled"];
let scrubTo: PreviewSession["scrubTo"];
let inComposition: PreviewSession["inComposition"];

beforeAll(async () => {
  project = await createProject({ "index.html": indexHtml(), "card.html": CARD_HTML }, { prefix: "compose-preview-" });
  preview = await openPreview(project.dir);
  ({ url, page, settled, scrubTo, inComposition } = preview);
});

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

/** The screen pixel at composition coordinates (x, y), through the stage's scale. */
async function pixel(x: number, y: number): Promise<[number, number, number]> {
  const { left, top, scale } = await page.$eval("#frames", (frames) => {
    const box = frames.getBoundingClientRect();
    return { left: box.left, top: box.top, scale: Number(document.getElementById("stage")!.dataset.scale) };
  });
  const png = await page.screenshot({ clip: { x: Math.floor(left + x * scale), y: Math.floor(top + y * scale), width: 1, height: 1 } });
  const [r = 0, g = 0, b = 0] = PNG.sync.read(Buffer.from(png)).data;
  return [r, g, b];
}

function expectColour(actual: [number, number, number], expected: [number, number, number]): void {
  for (let i = 0; i < 3; i++) expect(Math.abs(actual[i]! - expected[i]!), `channel ${i} of rgb(${actual.join(", ")})`).toBeLessThanOrEqual(4);
}

describe("compose preview", () => {
  it("serves every HTML file with the runtime and its boot call as the first script of <head>", async () => {
    const config = encodeURIComponent(JSON.stringify({ variables: { title: "Hi" } }));
    const index = await (await fetch(`${url}index.html?__compose_config=${config}`)).text();
    const card = await (await fetch(`${url}card.html`)).text();
    for (const html of [index, card]) {
      const firstScript = /<script\b[^>]*>/.exec(html)![0];
      expect(firstScript).toMatch(/src="\/__compose\/runtime\.js/);
      expect(html.indexOf(firstScript)).toBe(html.indexOf("<head>") + "<head>".length);
    }
    // The bundle is the same for every frame and kept by the browser; the boot call follows it inline.
    expect(index).toContain(`${/<script\b[^>]*><\/script>/.exec(index)![0]}<script>;window.__composeBoot({"variables":{"title":"Hi"}});</script>`);
    expect(card).toContain("<script>;window.__composeBoot({});</script>");
    const runtimeUrl = /src="([^"]+)"/.exec(index)![1]!;
    expect(/src="([^"]+)"/.exec(card)![1]).toBe(runtimeUrl);
    const runtime = await fetch(new URL(runtimeUrl, url));
    expect(await runtime.text()).toContain("__composeBoot");
    expect(runtime.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${url}..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  it("shows the composition at its own size, scaled down to fit the window", async () => {
    expect(await page.$eval("#composition", (frame: HTMLIFrameElement) => [frame.width, frame.height])).toEqual(["320", "180"]);
    expect(await page.$eval("#stage", (stage) => stage.dataset.scale)).toBe("1");
    await page.setViewportSize({ width: 560, height: 500 });
    await page.waitForFunction(() => Number(document.getElementById("stage")!.dataset.scale) < 1);
    const { scale, width, height } = await page.$eval("#stage", (stage) => ({
      scale: Number(stage.dataset.scale),
      width: stage.getBoundingClientRect().width,
      height: stage.getBoundingClientRect().height,
    }));
    expect(width).toBeCloseTo(320 * scale, 0);
    expect(height).toBeCloseTo(180 * scale, 0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => document.getElementById("stage")!.dataset.scale === "1");
  });

  it("scrubs frame-exactly through the runtime: time, frame and what the frame shows", async () => {
    await scrubTo(30);
    expect(await page.textContent("#time")).toBe("1.000");
    expect(await page.textContent("#frame")).toBe("30");
    expect(await page.textContent("#last-frame")).toBe("59");
    // x = 200 * t / 2 s, linear: 100 px at 1 s.
    expect(await inComposition<number>("(doc) => doc.getElementById('box').getBoundingClientRect().left")).toBeCloseTo(100, 3);
    expectColour(await pixel(120, 90), [255, 0, 0]);
    expectColour(await pixel(60, 90), [255, 255, 255]);

    await scrubTo(45);
    expect(await page.textContent("#time")).toBe("1.500");
    expect(await inComposition<number>("(doc) => doc.getElementById('box').getBoundingClientRect().left")).toBeCloseTo(150, 3);
    expectColour(await pixel(170, 90), [255, 0, 0]);

    await page.click("#next-frame");
    await settled(46);
    expect(await inComposition<number>("(doc) => doc.getElementById('box').getBoundingClientRect().left")).toBeCloseTo(200 * (46 / 30 / 2), 3);
    await page.click("#prev-frame");
    await settled(45);
  });

  it("offers one widget per variable, chosen from its type and fields and labelled by its label", async () => {
    const widgets = await page.$$eval("#variables .variable", (rows) =>
      rows.map((row) => {
        const label = row.querySelector("label")!;
        const input = document.getElementById(label.htmlFor) as HTMLInputElement | HTMLSelectElement;
        return {
          id: row.getAttribute("data-variable"),
          label: label.textContent,
          tag: input.tagName.toLowerCase(),
          type: input instanceof HTMLInputElement ? input.type : undefined,
          value: input instanceof HTMLInputElement && input.type === "checkbox" ? input.checked : input.value,
          placeholder: input.getAttribute("placeholder"),
          maxLength: input.getAttribute("maxlength"),
          min: input.getAttribute("min"),
          max: input.getAttribute("max"),
          step: input.getAttribute("step"),
          text: row.querySelector(".control")!.textContent,
          options: input instanceof HTMLSelectElement ? Array.from(input.options, (option) => [option.value, option.text]) : undefined,
        };
      }),
    );
    expect(widgets.map((widget) => [widget.id, widget.label, widget.tag, widget.type])).toEqual([
      ["title", "Title text", "input", "text"],
      ["boxColor", "Box colour", "input", "color"],
      ["size", "Box size", "input", "number"],
      ["showTitle", "Show title", "input", "checkbox"],
      ["mood", "Mood", "select", undefined],
    ]);
    const [title, colour, size, showTitle, mood] = widgets;
    expect(title).toMatchObject({ value: "Hello", placeholder: "Say something", maxLength: "24" });
    expect(colour).toMatchObject({ value: "#ff0000" });
    expect(size).toMatchObject({ value: "40", min: "20", max: "80", step: "5" });
    expect(size!.text).toContain("px");
    expect(showTitle).toMatchObject({ value: true });
    expect(mood!.options).toEqual([
      ["calm", "Calm and slow"],
      ["loud", "Loud and fast"],
    ]);
    expect(mood!.value).toBe("calm");
  });

  it("applies a new colour and text at once, on the same frame", async () => {
    await page.$eval("#variable-boxColor", (input: HTMLInputElement) => {
      input.value = "#00ff00";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await page.fill("#variable-title", "Scrubbed and edited");
    await page.waitForFunction(() => document.getElementById("stage")!.dataset.config!.includes("Scrubbed and edited"));
    await settled(45);
    expect(await inComposition<string>("(doc) => doc.getElementById('title').textContent")).toBe("Scrubbed and edited");
    expect(await inComposition<number>("(doc) => doc.getElementById('box').getBoundingClientRect().left")).toBeCloseTo(150, 3);
    expectColour(await pixel(170, 90), [0, 255, 0]);
    // The frames it replaced are gone once the new one is painted: one page stays loaded, not one per edit.
    await page.waitForFunction(() => document.querySelectorAll("#frames iframe").length === 1);
  });

  it("copies the matching compose render command with only the changed values", async () => {
    await page.click("#copy-command");
    await page.waitForFunction(() => document.getElementById("copy-result")!.textContent === "Copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.textContent("#render-command"));
    expect(copied).toBe(`compose render ${project.dir} --variables '{"title":"Scrubbed and edited","boxColor":"#00ff00"}'`);
  });

  it("keeps the time when the fps changes, and puts a non-default fps into the command", async () => {
    await page.selectOption("#fps", "24");
    await settled(36);
    expect(await page.textContent("#time")).toBe("1.500");
    expect(await page.textContent("#last-frame")).toBe("47");
    expect(await page.textContent("#render-command")).toMatch(/^compose render \S+ --fps 24 --variables '/);
    await page.selectOption("#fps", "30");
    await settled(45);
    expect(await page.textContent("#render-command")).not.toContain("--fps");
  });

  it("shows the lint findings of the project", async () => {
    expect(await page.textContent("#lint-summary")).toBe("0 errors, 1 warning in 2 files");
    expect(await page.$$eval("#lint-findings li", (items) => items.map((item) => item.getAttribute("data-code")))).toEqual(["variable-values-undeclared"]);
  });

  it("runs sub-compositions through the same runtime, with their own values", async () => {
    const label = await inComposition<string>(
      "(doc) => { const card = doc.querySelector('#card iframe').contentWindow; return card.__compose ? card.document.getElementById('label').textContent : 'no runtime'; }",
    );
    expect(label).toBe("Card A");
  });

  it("plays by seeking frame after frame", async () => {
    await scrubTo(0);
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenFrames: string[] }).seenFrames = seen;
      new MutationObserver(() => {
        const frame = document.getElementById("stage")!.dataset.shownFrame!;
        if (seen.at(-1) !== frame) seen.push(frame);
      }).observe(document.getElementById("stage")!, { attributes: true, attributeFilter: ["data-shown-frame"] });
    });
    await page.click("#play");
    await page.waitForFunction(() => Number(document.getElementById("stage")!.dataset.shownFrame) >= 12, null, { timeout: 10_000 });
    await page.click("#play");
    await settled();
    const seen = (await page.evaluate(() => (window as unknown as { seenFrames: string[] }).seenFrames)).map(Number);
    expect(seen.length).toBeGreaterThanOrEqual(12);
    // Every frame in order, none skipped.
    expect(seen).toEqual(seen.map((_, i) => seen[0]! + i));
    expect(await page.textContent("#play")).toBe("Play");
  });

  it("reloads when a file changes, keeping the variables and lint up to date", async () => {
    await writeFile(project.path("index.html"), indexHtml("second version").replace(', "typo": 1', ""));
    await page.waitForFunction(
      () => (document.getElementById("composition") as HTMLIFrameElement | null)?.contentDocument?.getElementById("marker")?.textContent === "second version",
      null,
      { timeout: 10_000 },
    );
    await settled();
    await page.waitForFunction(() => document.getElementById("lint-summary")!.textContent === "0 errors, 0 warnings in 2 files");
    expect(await inComposition<string>("(doc) => doc.getElementById('title').textContent")).toBe("Scrubbed and edited");
  });

  it("shows what is wrong when a change breaks the composition", async () => {
    await writeFile(project.path("index.html"), indexHtml("third version").replace('data-composition-src="card.html"', 'data-composition-src="gone.html"'));
    await page.waitForFunction(() => document.getElementById("lint-summary")!.textContent!.startsWith("1 error"), null, { timeout: 10_000 });
    expect(await page.$$eval("#lint-findings li", (items) => items.map((item) => item.getAttribute("data-code")))).toEqual(["sub-composition-missing"]);
    await page.waitForFunction(() => /gone\.html was not found \(HTTP 404\)/.test(document.getElementById("page-errors")!.textContent!), null, {
      timeout: 10_000,
    });
    expect(await page.$eval("#status", (status) => status.classList.contains("error"))).toBe(true);
  });
});
