/**
 * A page in each browser the suite checks what people see in: Debian's chromium and firefox-esr,
 * both driven by puppeteer-core (chromium over CDP, firefox-esr over WebDriver BiDi), behind one
 * small interface. firefox-esr is left out where it is not installed.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

const EXECUTABLES = { chromium: "/usr/bin/chromium", "firefox-esr": "/usr/bin/firefox-esr" } as const;
export type BrowserName = keyof typeof EXECUTABLES;

/** The browsers installed here, chromium first. */
export const BROWSERS = (Object.keys(EXECUTABLES) as BrowserName[]).filter((name) => existsSync(EXECUTABLES[name]));

export interface WebPage {
  page: Page;
  /** Evaluates `fn` (the source of a function of one argument) with `arg` in the page. */
  run<T>(fn: string, arg?: unknown): Promise<T>;
  /** The element's box as the screen shows it, at one device pixel per CSS pixel. */
  screenshot(selector: string): Promise<PNG>;
  close(): Promise<void>;
}

async function launch(name: BrowserName, profile: string): Promise<Browser> {
  return name === "chromium"
    ? puppeteer.launch({
        browser: "chrome",
        executablePath: EXECUTABLES.chromium,
        headless: true,
        userDataDir: profile,
        // Muted, a media element gives Web Audio silence: sound is measured in the page.
        ignoreDefaultArgs: ["--mute-audio"],
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--autoplay-policy=no-user-gesture-required",
          "--disable-background-networking",
          "--no-first-run",
          "--force-color-profile=srgb",
        ],
      })
    : puppeteer.launch({
        browser: "firefox",
        executablePath: EXECUTABLES["firefox-esr"],
        headless: true,
        protocol: "webDriverBiDi",
        userDataDir: profile,
        extraPrefsFirefox: { "media.autoplay.default": 0 },
      });
}

/** Opens `url` in a new browser with a viewport of `width` x `height`. */
export async function openWebPage(name: BrowserName, url: string, viewport = { width: 1280, height: 800 }): Promise<WebPage> {
  const profile = await mkdtemp(join(tmpdir(), `compose-web-${name}-`));
  const browser = await launch(name, profile);
  const page = await browser.newPage();
  await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
  await page.goto(url);
  return {
    page,
    run: <T>(fn: string, arg?: unknown) => page.evaluate(`(${fn})(${JSON.stringify(arg ?? null)})`) as Promise<T>,
    async screenshot(selector) {
      const element = await page.waitForSelector(selector);
      return PNG.sync.read(Buffer.from(await element!.screenshot()));
    },
    async close() {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** How far two frames of one size are apart: the mean absolute difference per channel, and the share of pixels off by more than 64 in a channel. */
export function frameDifference(a: PNG, b: PNG): { mean: number; farShare: number } {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`the frames differ in size: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  let sum = 0;
  let far = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let largest = 0;
    for (let c = 0; c < 3; c++) {
      const difference = Math.abs(a.data[i + c]! - b.data[i + c]!);
      sum += difference;
      largest = Math.max(largest, difference);
    }
    if (largest > 64) far++;
  }
  const pixels = a.width * a.height;
  return { mean: sum / (pixels * 3), farShare: far / pixels };
}

/** Writes frames that differ to a new temporary folder, for a look; returns the folder. */
export async function keepFrames(frames: Record<string, PNG>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "compose-frames-differ-"));
  for (const [name, png] of Object.entries(frames)) await writeFile(join(dir, `${name}.png`), PNG.sync.write(png));
  return dir;
}

/**
 * The bound a frame a browser shows is held to against the frame compose render makes: text
 * edges are antialiased differently by each browser (render draws without hinting), so single
 * pixels may differ much, but on average at most one step per channel, and at most 0.5 % of the
 * pixels by more than 64. A frame in a wrong font or at a wrong time is far outside it (a
 * fallback font for a 40 px title on 320x180 gives a mean near 9 and 5 % of the pixels far off).
 */
export const FRAME_BOUND = { mean: 1, farShare: 0.005 };
