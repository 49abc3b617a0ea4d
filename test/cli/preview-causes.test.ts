/// <reference lib="dom" />
/**
 * Causes on screen: what failed to load is listed with the file and line that asked for it, the
 * reason and render's code; a page error that follows a failed script names it; the findings show
 * under the frame; and the render panel can allow missing assets as --allow-missing-assets does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const BROKEN_HTML = compositionHtml({
  id: "broken",
  duration: 0.5,
  body: `<img id="logo" src="images/missing.png" data-start="0" data-duration="0.5" data-track-index="0">`,
  after: `<script src="lib/absent.js"></script>
<script>absentLibrary.draw();</script>`,
});
/** A data file fetched and a background image from a style sheet, neither there. */
const DATA_HTML = compositionHtml({
  id: "data",
  duration: 0.5,
  css: `#panel { position: absolute; inset: 0; background-image: url("images/backdrop.png"); }`,
  body: `<div id="panel" data-start="0" data-duration="0.5" data-track-index="0"></div>`,
  after: `<script>__compose.waitFor(fetch("data/rows.json").then((response) => (response.ok ? response.json() : [])), "rows");</script>`,
});
const IMAGE_ONLY_HTML = compositionHtml({
  id: "image-only",
  duration: 0.5,
  body: `<img src="gone.png" data-start="0" data-duration="0.5" data-track-index="0">`,
});

const lineOf = (html: string, text: string) => html.slice(0, html.indexOf(text)).split("\n").length;

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject(
    { "index.html": BROKEN_HTML, "image-only.html": IMAGE_ONLY_HTML, "data.html": DATA_HTML },
    { prefix: "compose-preview-causes-" },
  );
  preview = await openPreview(project.dir);
  await preview.page.waitForSelector("#load-failures li");
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

const items = (selector: string) =>
  preview.page.$$eval(selector, (list) => list.map((item) => ({ code: item.getAttribute("data-code"), text: item.textContent })));

describe("causes on screen", () => {
  it("lists every asset that failed to load, with the file and line that asked for it, the reason and render's code", async () => {
    await preview.page.waitForFunction(() => document.querySelectorAll("#load-failures li").length === 2);
    const failures = await items("#load-failures li");
    expect(failures).toContainEqual({
      code: "missing-asset",
      text: `errormissing-asset image images/missing.png failed to load (HTTP 404, requested by index.html:${lineOf(BROKEN_HTML, "images/missing.png")})index.html:${lineOf(BROKEN_HTML, "images/missing.png")}`,
    });
    expect(failures.map((failure) => failure.text)).toContainEqual(
      expect.stringContaining(`script lib/absent.js failed to load (HTTP 404, requested by index.html:${lineOf(BROKEN_HTML, "lib/absent.js")})`),
    );
  });

  it("names the failed script in the page error that follows it", async () => {
    const errors = await preview.page.$$eval("#page-errors li", (list) => list.map((item) => item.textContent));
    expect(errors).toContainEqual(expect.stringMatching(/absentLibrary is not defined.*\(after script lib\/absent\.js failed to load\)$/));
  });

  it("shows the load failures under the frame, not only in the side panel", async () => {
    const shown = await items("#frame-findings li");
    expect(shown.filter((item) => item.code === "missing-asset")).toHaveLength(2);
    expect(await preview.page.isVisible("#frame-findings")).toBe(true);
  });

  it("lists a fetch() answered 404 and a style sheet's background image that failed, with the line that asked for each", async () => {
    await preview.page.goto(`${preview.url}?composition=data.html`);
    await preview.settled(0);
    await preview.page.waitForFunction(() => document.querySelectorAll("#load-failures li").length === 2);
    const failures = (await items("#load-failures li")).map((item) => `${item.code} ${item.text}`);
    expect(failures).toContainEqual(
      expect.stringContaining(`missing-asset fetch data/rows.json failed to load (HTTP 404, requested by data.html:${lineOf(DATA_HTML, "data/rows.json")})`),
    );
    expect(failures).toContainEqual(
      expect.stringContaining(
        `missing-asset image images/backdrop.png failed to load (HTTP 404, requested by data.html:${lineOf(DATA_HTML, "images/backdrop.png")})`,
      ),
    );
  });

  it("renders with missing assets allowed when the render panel says so, with render's warning", async () => {
    await preview.page.goto(`${preview.url}?composition=image-only.html`);
    await preview.settled(0);
    await preview.page.check("#render-allow-missing");
    expect(await preview.page.textContent("#render-command")).toMatch(/ --allow-missing-assets$/);
    await preview.page.selectOption("#render-quality", "draft");
    await preview.page.fill("#render-workers", "1");
    await preview.page.click("#render-start");
    await preview.page.waitForFunction(() => ["finished", "failed"].includes(document.getElementById("render-panel")!.dataset.state ?? ""), undefined, {
      timeout: 120_000,
    });
    expect(await preview.page.$eval("#render-panel", (panel) => panel.dataset.state)).toBe("finished");
    expect((await items("#render-messages li")).map((item) => item.code)).toContain("missing-asset");
  }, 150_000);
});
