/// <reference lib="dom" />
/**
 * compose preview of a folder holding several compositions (no index.html): it starts at the
 * first, lists them all, and shows the one picked, with its own timeline. A render from the page
 * shows the render's warnings with their codes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const INTRO_HTML = compositionHtml({
  id: "intro",
  duration: 1,
  background: "#203040",
  body: `<div id="hello" data-start="0" data-duration="0.5" data-track-index="0"></div>`,
});
const OUTRO_HTML = compositionHtml({ id: "outro", duration: 2, body: `<div id="bye" data-start="1" data-duration="1" data-track-index="3"></div>` });

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject(
    { "intro.html": INTRO_HTML, "scenes/outro.html": OUTRO_HTML, "notes.html": "<p>not a composition</p>" },
    { prefix: "compose-preview-folder-" },
  );
  preview = await openPreview(project.dir);
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

const clipLabels = () => preview.page.$$eval(".clip", (clips) => clips.map((clip) => (clip as HTMLElement).dataset.label));

describe("compose preview of a folder with several compositions", () => {
  it("starts at the first and lists every composition", async () => {
    expect(await preview.page.isVisible("#composition-picker")).toBe(true);
    expect(await preview.page.$$eval("#composition-list option", (options) => options.map((option) => option.textContent))).toEqual([
      "intro.html",
      "scenes/outro.html",
    ]);
    expect(await preview.page.inputValue("#composition-list")).toBe("intro.html");
    expect(await clipLabels()).toEqual(["hello"]);
  });

  it("shows a render's warnings with their codes", async () => {
    // webm keeps transparency, and this composition paints a background over it.
    await preview.page.selectOption("#render-format", "webm");
    await preview.page.selectOption("#render-quality", "draft");
    await preview.page.fill("#render-workers", "1");
    await preview.page.click("#render-start");
    await preview.page.waitForFunction(() => ["finished", "failed"].includes(document.getElementById("render-panel")!.dataset.state ?? ""), undefined, {
      timeout: 120_000,
    });
    expect(await preview.page.$eval("#render-panel", (panel) => panel.dataset.state)).toBe("finished");
    const messages = await preview.page.$$eval("#render-messages li", (items) => items.map((item) => [item.className, item.getAttribute("data-code")]));
    expect(messages).toContainEqual(["warning", "opaque-background"]);
    expect(await preview.page.getAttribute("#render-link", "href")).toMatch(/^\/renders\/intro-\d{8}T\d{6}-1\.webm$/);
  }, 150_000);

  it("shows the composition picked, with its own duration and timeline", async () => {
    await preview.page.selectOption("#composition-list", "scenes/outro.html");
    await preview.page.waitForFunction(() => document.getElementById("last-frame")!.textContent === "59");
    await preview.settled(0);
    expect(await preview.page.$eval("#composition", (frame: HTMLIFrameElement) => new URL(frame.src).pathname)).toBe("/scenes/outro.html");
    expect(await clipLabels()).toEqual(["bye"]);
    expect(await preview.page.$$eval(".lane-label", (labels) => labels.map((label) => label.textContent))).toEqual(["track 3"]);
    expect(await preview.page.textContent("#render-command")).toMatch(/^compose render \S*scenes\/outro\.html$/);
  });
});
