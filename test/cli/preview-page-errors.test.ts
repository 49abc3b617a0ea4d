/// <reference lib="dom" />
/**
 * Every example, sub-composition instances included, opens in the preview without a page error,
 * in Debian's chromium (playwright-core) and firefox-esr (puppeteer-core over WebDriver BiDi).
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser as ChromiumBrowser } from "playwright-core";
import puppeteer, { type Browser as FirefoxBrowser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli } from "../support/cli.js";
import { REPO_ROOT } from "../support/project.js";

const EXAMPLES = readdirSync(join(REPO_ROOT, "examples")).filter((name) => existsSync(join(REPO_ROOT, "examples", name, "index.html")));
const FIREFOX = "/usr/bin/firefox-esr";

/** What a person reads under PAGE ERRORS once the first frame shows, in a page `open` loads. */
async function pageErrorsOf(example: string, open: (url: string) => Promise<string[]>): Promise<string[]> {
  const preview = startCli(["preview", join(REPO_ROOT, "examples", example), "--port", "0"], { timeoutMs: 300_000 });
  try {
    return await open(await preview.waitForStdout(/http:\/\/127\.0\.0\.1:\d+\//));
  } finally {
    preview.child.kill("SIGTERM");
    await preview.result;
  }
}

const FIRST_FRAME_SHOWN = () => {
  const stage = document.getElementById("stage")!;
  return stage.dataset.pending === "false" && stage.dataset.shownFrame === "0";
};
const LISTED_ERRORS = () => Array.from(document.querySelectorAll("#page-errors li"), (item) => item.textContent ?? "");

describe("compose preview of the examples in chromium", () => {
  let browser: ChromiumBrowser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  });
  afterAll(async () => browser?.close());

  it.each(EXAMPLES)("examples/%s shows no page error", async (example) => {
    const errors = await pageErrorsOf(example, async (url) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        await page.goto(url);
        await page.waitForFunction(FIRST_FRAME_SHOWN, undefined, { timeout: 60_000 });
        return await page.evaluate(LISTED_ERRORS);
      } finally {
        await page.close();
      }
    });
    expect(errors).toEqual([]);
  }, 120_000);
});

describe.skipIf(!existsSync(FIREFOX))("compose preview of the examples in firefox-esr", () => {
  let browser: FirefoxBrowser;
  let profile: string;
  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), "compose-preview-firefox-profile-"));
    browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true, protocol: "webDriverBiDi", userDataDir: profile });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it.each(EXAMPLES)("examples/%s shows no page error", async (example) => {
    const errors = await pageErrorsOf(example, async (url) => {
      const page = await browser.newPage();
      try {
        await page.setViewport({ width: 1280, height: 800 });
        await page.goto(url);
        await page.waitForFunction(FIRST_FRAME_SHOWN, { timeout: 60_000 });
        return await page.evaluate(LISTED_ERRORS);
      } finally {
        await page.close();
      }
    });
    expect(errors).toEqual([]);
  }, 120_000);
});
