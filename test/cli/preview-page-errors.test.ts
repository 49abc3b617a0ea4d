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

/** The example compositions (examples/player is a web page that plays one). */
const EXAMPLES = readdirSync(join(REPO_ROOT, "examples")).filter((name) => name !== "player" && existsSync(join(REPO_ROOT, "examples", name, "index.html")));
const FIREFOX = "/usr/bin/firefox-esr";
const HAS_FIREFOX = existsSync(FIREFOX);

const FIRST_FRAME_SHOWN = () => {
  const stage = document.getElementById("stage")!;
  return stage.dataset.pending === "false" && stage.dataset.shownFrame === "0";
};
const LISTED_ERRORS = () => Array.from(document.querySelectorAll("#page-errors li"), (item) => item.textContent ?? "");

let chromiumBrowser: ChromiumBrowser;
let firefoxBrowser: FirefoxBrowser | undefined;
let firefoxProfile: string | undefined;

/** What a person reads under PAGE ERRORS once the first frame shows. */
async function chromiumErrors(url: string): Promise<string[]> {
  const page = await chromiumBrowser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(url);
    await page.waitForFunction(FIRST_FRAME_SHOWN, undefined, { timeout: 60_000 });
    return await page.evaluate(LISTED_ERRORS);
  } finally {
    await page.close();
  }
}

async function firefoxErrors(url: string): Promise<string[]> {
  const page = await firefoxBrowser!.newPage();
  try {
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(url);
    await page.waitForFunction(FIRST_FRAME_SHOWN, { timeout: 60_000 });
    return await page.evaluate(LISTED_ERRORS);
  } finally {
    await page.close();
  }
}

/** Per example, what each browser listed; one preview of it serves both browsers at once. */
const listed = new Map<string, { chromium: string[]; firefox?: string[] }>();

beforeAll(async () => {
  [chromiumBrowser] = await Promise.all([
    chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] }),
    HAS_FIREFOX &&
      (async () => {
        firefoxProfile = await mkdtemp(join(tmpdir(), "compose-preview-firefox-profile-"));
        firefoxBrowser = await puppeteer.launch({
          browser: "firefox",
          executablePath: FIREFOX,
          headless: true,
          protocol: "webDriverBiDi",
          userDataDir: firefoxProfile,
        });
      })(),
  ]);
  for (const example of EXAMPLES) {
    const preview = startCli(["preview", join(REPO_ROOT, "examples", example), "--port", "0"], { timeoutMs: 300_000 });
    try {
      const url = await preview.waitForStdout(/http:\/\/127\.0\.0\.1:\d+\//);
      const [inChromium, inFirefox] = await Promise.all([chromiumErrors(url), HAS_FIREFOX ? firefoxErrors(url) : undefined]);
      listed.set(example, { chromium: inChromium, firefox: inFirefox });
    } finally {
      preview.child.kill("SIGTERM");
      await preview.result;
    }
  }
}, 600_000);
afterAll(async () => {
  await chromiumBrowser?.close();
  await firefoxBrowser?.close();
  if (firefoxProfile) await rm(firefoxProfile, { recursive: true, force: true });
});

describe("compose preview of the examples in chromium", () => {
  it.each(EXAMPLES)("examples/%s shows no page error", (example) => {
    expect(listed.get(example)!.chromium).toEqual([]);
  });
});

describe.skipIf(!HAS_FIREFOX)("compose preview of the examples in firefox-esr", () => {
  it.each(EXAMPLES)("examples/%s shows no page error", (example) => {
    expect(listed.get(example)!.firefox).toEqual([]);
  });
});
