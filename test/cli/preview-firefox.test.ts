/// <reference lib="dom" />
/**
 * The preview page in Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi: the
 * timeline of a three-track composition, seeking by click and keyboard, and a render from the
 * page to a finished mp4. Skipped where firefox-esr is not installed.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli, type CliRun } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FIREFOX = "/usr/bin/firefox-esr";

const INDEX_HTML = compositionHtml({
  id: "tracks",
  duration: 1,
  backdrop: "#203040",
  body: `<div id="a" data-start="0" data-duration="0.5" data-track-index="0"></div>
<div id="b" data-start="a" data-duration="0.5" data-track-index="1"></div>
<div id="c" data-start="0.25" data-duration="0.5" data-track-index="2"></div>`,
});

let project: TempProject;
let profile: string;
let preview: CliRun;
let browser: Browser;
let page: Page;

const settled = (frame: number) =>
  page.waitForFunction(
    (wanted) => {
      const stage = document.getElementById("stage")!;
      return stage.dataset.pending === "false" && stage.dataset.shownFrame === String(wanted);
    },
    { timeout: 30_000 },
    frame,
  );

describe.skipIf(!existsSync(FIREFOX))("compose preview in firefox-esr", () => {
  beforeAll(async () => {
    project = await createProject({ "index.html": INDEX_HTML }, { prefix: "compose-preview-firefox-" });
    profile = await mkdtemp(join(tmpdir(), "compose-preview-firefox-profile-"));
    preview = startCli(["preview", project.dir, "--port", "0"], { timeoutMs: 300_000 });
    const url = await preview.waitForStdout(/http:\/\/127\.0\.0\.1:\d+\//);
    browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true, protocol: "webDriverBiDi", userDataDir: profile });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(url);
    await page.waitForSelector(".clip", { timeout: 30_000 });
    await settled(0);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    preview?.child.kill("SIGTERM");
    await preview?.result;
    await project?.remove();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("draws the timeline of three tracks", async () => {
    expect(await page.$$eval(".lane-label", (labels) => labels.map((label) => label.textContent))).toEqual(["track 0", "track 1", "track 2"]);
    const boxes = await page.$$eval(".clip", (clips) =>
      clips.map((clip) => {
        const track = clip.closest(".lane")!.querySelector(".lane-track")!.getBoundingClientRect();
        const box = clip.getBoundingClientRect();
        return { label: (clip as HTMLElement).dataset.label, left: box.left - track.left, width: box.width };
      }),
    );
    const scale = boxes[0]!.width / 0.5;
    expect(boxes.map((box) => [box.label, Math.round(box.left / scale / 0.05) * 0.05])).toEqual([
      ["a", 0],
      ["b", 0.5],
      ["c", 0.25],
    ]);
  });

  it("seeks by click and steps with the keyboard", async () => {
    const lane = (await (await page.$(".lane-track"))!.boundingBox())!;
    const scale = (await page.$eval('.clip[data-label="a"]', (clip) => clip.getBoundingClientRect().width)) / 0.5;
    await page.mouse.click(lane.x + 0.5 * scale, lane.y + 4);
    await settled(15);
    await page.focus("#timeline");
    await page.keyboard.press("ArrowRight");
    await settled(16);
  });

  it("renders from the page to a finished mp4", async () => {
    await page.select("#render-quality", "draft");
    await page.click("#render-start");
    await page.waitForFunction(() => ["finished", "failed", "refused", "cancelled"].includes(document.getElementById("render-panel")!.dataset.state ?? ""), {
      timeout: 180_000,
    });
    expect(await page.$eval("#render-panel", (panel) => (panel as HTMLElement).dataset.state)).toBe("finished");
    expect((await readdir(join(project.dir, "renders"))).filter((file) => file.endsWith(".mp4"))).toHaveLength(1);
  }, 200_000);
});
