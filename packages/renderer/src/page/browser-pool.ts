import type { Browser, BrowserContext } from "puppeteer-core";
import { launchBrowser, BrowserNotFoundError, profileRemoved, type LaunchOptions } from "./launch-browser.js";
import { withDeadline } from "../common/deadline.js";
import { RenderError } from "../common/render-error.js";

/** How long handing a browser back may take (detaching, closing its context) before it is closed instead. */
const HAND_BACK_MS = 2000;

/**
 * Browsers kept between the renders that share them (a batch's rows), by how they were launched:
 * a render takes one launched as it would launch it, and hands it back clean when it succeeded.
 */
export class KeptBrowsers {
  private readonly idle = new Map<string, Browser[]>();

  take(key: string): Browser | undefined {
    const browsers = this.idle.get(key) ?? [];
    for (let browser = browsers.pop(); browser; browser = browsers.pop()) {
      if (browser.connected) return browser;
    }
    return undefined;
  }

  put(key: string, browser: Browser): void {
    this.idle.set(key, [...(this.idle.get(key) ?? []), browser]);
  }

  async closeAll(): Promise<void> {
    const browsers = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(browsers.map(closeBrowser));
  }
}

interface Lease {
  key: string;
  context: BrowserContext;
  /** What the render attached to the browser (its request routing), undone before another render takes it. */
  releases: Array<() => Promise<unknown>>;
  onDisconnect: () => void;
}

/**
 * The browsers of one render: launched (or taken from `kept`) together, closed (or handed back)
 * together, and watched for crashes. Each render's pages live in a browser context of its own, so
 * a kept browser carries nothing of one render into the next: no cache, storage or page.
 */
export class BrowserPool {
  private readonly leases = new Map<Browser, Lease>();
  private closing = false;
  private reusable = true;
  private readonly closings = new Set<Promise<unknown>>();
  /** Set when a browser went away without being asked to. */
  crashed = false;

  constructor(private readonly kept?: KeptBrowsers) {}

  /** `count` browsers launched with `options`, each as a fresh context of this render's own. */
  async launch(count: number, options: LaunchOptions): Promise<BrowserContext[]> {
    const key = JSON.stringify(options);
    return Promise.all(
      Array.from({ length: count }, async () => {
        const browser = this.kept?.take(key) ?? (await launchOne(options));
        const onDisconnect = () => {
          if (!this.closing) this.crashed = true;
        };
        browser.on("disconnected", onDisconnect);
        const context = await browser.createBrowserContext();
        this.leases.set(browser, { key, context, releases: [], onDisconnect });
        return context;
      }),
    );
  }

  /** Runs `release` when `browser` leaves this render, before any other render may take it. */
  onRelease(browser: Browser, release: () => Promise<unknown>): void {
    this.leases.get(browser)?.releases.push(release);
  }

  /** A render that failed hands its browsers to no other: they are closed. */
  forgoReuse(): void {
    this.reusable = false;
  }

  /**
   * Hands the browsers back to `kept` (a render that succeeded, sharing them) or closes them:
   * politely, then killing whatever has not gone within a second (a hung or crashed browser). A
   * call while another is closing waits for that one too: once it returns, every browser is gone.
   */
  async closeAll(): Promise<void> {
    this.closing = true;
    const leases = [...this.leases];
    this.leases.clear();
    const closing = Promise.all(leases.map(([browser, lease]) => this.end(browser, lease)));
    this.closings.add(closing);
    await Promise.all(this.closings);
    this.closings.delete(closing);
    if (this.closings.size === 0) this.closing = false;
  }

  /** Immediate stop, for cancellation: pending CDP calls fail at once. */
  killAll(): void {
    this.closing = true;
    this.reusable = false;
    for (const browser of this.leases.keys()) browser.process()?.kill("SIGKILL");
  }

  private async end(browser: Browser, lease: Lease): Promise<void> {
    browser.off("disconnected", lease.onDisconnect);
    if (this.kept && this.reusable && !this.crashed && browser.connected) {
      const handedBack = await withDeadline(
        (async () => {
          for (const release of lease.releases) await release();
          await lease.context.close();
          return true;
        })().catch(() => false),
        HAND_BACK_MS,
        () => false,
      );
      if (handedBack) return this.kept.put(lease.key, browser);
    }
    await closeBrowser(browser);
  }
}

async function launchOne(options: LaunchOptions): Promise<Browser> {
  try {
    return await launchBrowser(options);
  } catch (error) {
    if (error instanceof BrowserNotFoundError) throw new RenderError("browser-missing", error.message);
    throw error;
  }
}

async function closeBrowser(browser: Browser): Promise<void> {
  await withDeadline(
    browser.close().catch(() => undefined),
    1000,
    () => void browser.process()?.kill("SIGKILL"),
  );
  await profileRemoved(browser);
}
