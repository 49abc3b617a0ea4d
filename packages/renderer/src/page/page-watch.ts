import type { CDPSession, Page } from "puppeteer-core";
import { withDeadline } from "../common/deadline.js";
import { RenderError } from "../common/render-error.js";

/**
 * How long a page that missed a deadline has to answer a trivial question before it counts as
 * hung: a page busy drawing a heavy frame answers within it, a script that never returns does not.
 */
export const HANG_GRACE_MS = 2000;

/** Deadline of a CDP call that does no page work (opening a page, settings, probes). */
export const PLAIN_CALL_MS = 10_000;

/**
 * Watches one composition page so that no call to it waits forever: a crash of its renderer
 * process ends every pending call at once (page-crashed), and a call that misses its deadline
 * while the page no longer answers at all ends as page-hung. Messages name where the render was.
 */
export class PageWatch {
  /** Where the render is, for messages: "while loading", "at frame 12 (0.400 s)". */
  where = "while loading";
  /** Set when the page can no longer be used: its renderer crashed, or it left the composition. */
  private crash: RenderError | undefined;
  /** Rejects with `crash` once it is set. */
  private readonly crashed: Promise<never>;
  /** Ends the page: every pending and later call fails with `error` (or with the failure that came first). */
  readonly fail: (error: RenderError) => void;
  /** The URL the page must stay on, from holdTo() until release(). */
  private heldTo: string | undefined;
  private listening = false;

  constructor(
    page: Page,
    private readonly cdp: CDPSession,
  ) {
    let reject: (error: RenderError) => void = () => undefined;
    this.crashed = new Promise<never>((_, fail) => {
      reject = fail;
    });
    this.crashed.catch(() => undefined);
    this.fail = (error) => {
      this.crash ??= error;
      reject(this.crash);
    };
    // Puppeteer reports Inspector.targetCrashed (a killed or out-of-memory renderer) as "error".
    page.once("error", () => this.fail(new RenderError("page-crashed", `the page's renderer process crashed ${this.where} (out of memory, or killed)`)));
  }

  /**
   * From now on the page must stay on `url`: navigating its top frame elsewhere, reloading it or
   * replacing its document (document.open) fails every call as left-composition.
   */
  async holdTo(url: string): Promise<void> {
    this.heldTo = url;
    if (this.listening) return;
    this.listening = true;
    const left = (how: string) => {
      if (this.heldTo !== undefined) this.fail(new RenderError("left-composition", `the page left the composition ${this.where}: ${how}`));
    };
    const { frameTree } = await this.send("Page.getFrameTree");
    const top = frameTree.frame.id;
    // A navigation is reported as soon as the page asks for it, frames before it commits.
    this.cdp.on("Page.frameRequestedNavigation", ({ frameId, reason, url: target }) => {
      if (frameId !== top) return;
      left(reason === "reload" || target === this.heldTo ? "it reloaded itself" : `it navigated to ${target}`);
    });
    this.cdp.on("Page.frameNavigated", ({ frame }) => {
      if (!frame.parentId) left(frame.url === this.heldTo ? "it reloaded itself" : `it navigated to ${frame.url}`);
    });
    this.cdp.on("Page.documentOpened", ({ frame }) => {
      if (!frame.parentId) left("it replaced its document with document.open()");
    });
    await this.send("Page.enable");
  }

  /** The renderer's own navigation (loading the composition again) is not the page leaving it. */
  release(): void {
    this.heldTo = undefined;
  }

  /** Rejects at once if the renderer has crashed, whenever `call` would otherwise settle. */
  guard<T>(call: Promise<T>): Promise<T> {
    if (this.crash) return Promise.reject(this.crash);
    return Promise.race([call, this.crashed]);
  }

  /**
   * `call` within `ms`; past it, a page that still answers gets `late()` (its own explanation of
   * what it waits for), one that does not is hung.
   */
  within<T>(call: Promise<T>, ms: number, late: () => Promise<RenderError>): Promise<T> {
    return this.guard(
      withDeadline(call, ms, async () => {
        throw await this.overdue(ms, late);
      }),
    );
  }

  /** The error for a call that missed its `ms` deadline: page-hung, or what `late()` says. */
  async overdue(ms: number, late: () => Promise<RenderError>): Promise<RenderError> {
    if (!(await this.answers())) return await this.hung(ms);
    return this.guard(late());
  }

  /** A CDP call that does no page work, with a deadline all the same. */
  send: CDPSession["send"] = ((method: string, params?: object) =>
    this.within(this.cdp.send(method as never, params as never), PLAIN_CALL_MS, () => this.hung(PLAIN_CALL_MS))) as CDPSession["send"];

  private async hung(ms: number): Promise<RenderError> {
    const stuck = `the page stopped answering ${this.where}`;
    const seconds = (ms + HANG_GRACE_MS) / 1000;
    if (await this.inScript()) return new RenderError("page-hung", `${stuck}: a script ran for more than ${seconds} s without returning`);
    return new RenderError(
      "page-hung",
      `${stuck}: no script was running; the browser spent more than ${seconds} s laying out or painting the page (a page too large or too deep to draw, such as SVG <use> elements that multiply)`,
    );
  }

  /**
   * Whether the stuck main thread was in a script: a running script can be terminated (the
   * protocol interrupts JavaScript for that), after which the page answers again; layout and
   * painting cannot be interrupted, and the page stays silent. The page fails either way.
   */
  private async inScript(): Promise<boolean> {
    this.cdp.send("Runtime.terminateExecution").catch(() => undefined);
    return this.answers();
  }

  /** Whether the page's main thread evaluates a trivial expression within the grace period. */
  private async answers(): Promise<boolean> {
    const probe = this.cdp.send("Runtime.evaluate", { expression: "0", returnByValue: true });
    return this.guard(
      withDeadline(
        probe.then(() => true),
        HANG_GRACE_MS,
        () => false,
      ),
    );
  }
}
