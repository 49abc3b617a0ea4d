/// <reference lib="dom" />
/** `compose preview` in a real browser: Debian's chromium driven by playwright-core. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { startCli, type CliRun } from "./cli.js";

const BROWSER_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export interface PreviewSession {
  url: string;
  page: Page;
  context: BrowserContext;
  /** Waits until the page has nothing queued (no load, seek or pending variable change) and shows `frame`, painted. */
  settled(frame?: number): Promise<void>;
  /** Moves the scrubber to `frame` as a user would, and waits until that frame shows. */
  scrubTo(frame: number): Promise<void>;
  /** Evaluates `fn(doc)` in the composition frame: the document the runtime seeks. */
  inComposition<T>(fn: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts `compose preview target`, opens its page in a new browser (which may use the clipboard)
 * and waits until the first frame shows.
 */
export async function openPreview(target: string, options: { env?: Record<string, string>; cwd?: string } = {}): Promise<PreviewSession> {
  const preview: CliRun = startCli(["preview", target, "--port", "0"], { timeoutMs: 300_000, env: options.env, cwd: options.cwd });
  const userDataDir = await mkdtemp(join(tmpdir(), "compose-preview-browser-"));
  const [url, context] = await Promise.all([
    preview.waitForStdout(/http:\/\/127\.0\.0\.1:\d+\//),
    chromium.launchPersistentContext(userDataDir, {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: BROWSER_FLAGS,
      viewport: { width: 1280, height: 800 },
    }),
  ]);
  const page = context.pages()[0] ?? (await context.newPage());

  const settled = async (frame?: number): Promise<void> => {
    await page.waitForFunction(
      (wanted) => {
        const stage = document.getElementById("stage")!;
        return stage.dataset.pending === "false" && stage.dataset.shownFrame !== undefined && (wanted === null || stage.dataset.shownFrame === String(wanted));
      },
      frame ?? null,
      { timeout: 20_000 },
    );
    // Two animation frames of the page: the frame seeked is painted, not only laid out, so a
    // screenshot taken now shows it even on a loaded machine.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  };
  const session: PreviewSession = {
    url,
    page,
    context,
    settled,
    async scrubTo(frame) {
      await page.$eval(
        "#scrubber",
        (input: HTMLInputElement, value) => {
          input.value = String(value);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        },
        frame,
      );
      await settled(frame);
    },
    inComposition: <T>(fn: string) =>
      page.evaluate(`(() => { const doc = document.getElementById("composition").contentDocument; return (${fn})(doc); })()`) as Promise<T>,
    async close() {
      await context.close();
      preview.child.kill("SIGTERM");
      await preview.result;
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  await page.goto(url);
  await settled(0);
  return session;
}
