import type { Browser } from "puppeteer-core";
import { launchBrowser, BrowserNotFoundError, profileRemoved, type LaunchOptions } from "./launch-browser.js";
import { withDeadline } from "../common/deadline.js";
import { RenderError } from "../common/render-error.js";

/** The browsers of one render: launched together, closed together, and watched for crashes. */
export class BrowserPool {
  private readonly browsers: Browser[] = [];
  private closing = false;
  private readonly closings = new Set<Promise<unknown>>();
  /** Set when a browser went away without being asked to. */
  crashed = false;

  async launch(count: number, options: LaunchOptions): Promise<Browser[]> {
    const launched = await Promise.all(
      Array.from({ length: count }, async () => {
        try {
          const browser = await launchBrowser(options);
          this.browsers.push(browser);
          browser.once("disconnected", () => {
            if (!this.closing) this.crashed = true;
          });
          return browser;
        } catch (error) {
          if (error instanceof BrowserNotFoundError) throw new RenderError("browser-missing", error.message);
          throw error;
        }
      }),
    );
    return launched;
  }

  /**
   * Closes politely, then kills whatever has not gone within a second (a hung or crashed browser).
   * A call while another is closing waits for that one too: once it returns, every browser is gone.
   */
  async closeAll(): Promise<void> {
    this.closing = true;
    const closing = Promise.all(this.browsers.splice(0).map((browser) => closeBrowser(browser)));
    this.closings.add(closing);
    await Promise.all(this.closings);
    this.closings.delete(closing);
    if (this.closings.size === 0) this.closing = false;
  }

  /** Immediate stop, for cancellation: pending CDP calls fail at once. */
  killAll(): void {
    this.closing = true;
    for (const browser of this.browsers) browser.process()?.kill("SIGKILL");
  }
}

async function closeBrowser(browser: Browser): Promise<void> {
  await withDeadline(browser.close().catch(() => undefined), 1000, () => void browser.process()?.kill("SIGKILL"));
  await profileRemoved(browser);
}
