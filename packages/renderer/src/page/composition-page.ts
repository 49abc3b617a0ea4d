import { TimeoutError, type BrowserContext, type CDPSession, type Page, type Protocol } from "puppeteer-core";
import type { ComposeBootConfig, CompositionInfo, MediaDescription, MediaPlan, PageError } from "@compose/runtime";
import { withDeadline } from "../common/deadline.js";
import { RenderError } from "../common/render-error.js";
import type { FrameResult } from "../common/frame-result.js";
import type { FrameStats } from "@compose/core";
import { AssetWatch } from "./asset-watch.js";
import { findFontFallbacks, type FontFallback } from "./font-fallback.js";
import { newPage } from "./new-page.js";
import { createFrameCapturer, type CaptureMode, type FrameImageSettings } from "./frame-capturer.js";
import { formatMemorySize } from "../common/memory-size.js";
import { watchMemory } from "./memory-watch.js";
import { PageWatch, PLAIN_CALL_MS } from "./page-watch.js";
import { runtimeSource } from "./runtime-source.js";
import { FONT_SOURCES_SCRIPT } from "./font-sources.js";
import { createPaintFingerprinter, type PaintFingerprint } from "./paint-fingerprint.js";

export interface CompositionPageOptions {
  url: string;
  /** The viewport, in CSS pixels: the composition's size. */
  width: number;
  height: number;
  /** Device pixels per CSS pixel the page is drawn at; its browser must be launched with the same (LaunchOptions). */
  deviceScaleFactor: number;
  transparent: boolean;
  captureMode: CaptureMode;
  boot: ComposeBootConfig;
  /** The render's frame rate, to name a frame in messages. */
  fps?: number;
  readyTimeoutMs: number;
  /** Warn of assets that fail to load instead of failing the render. */
  allowMissingAssets: boolean;
  warn: (code: string, message: string) => void;
  /** What generic families are drawn with (Page.setFontFamilies), and a script that adds the project's fonts to every document. */
  fonts?: { generic: Protocol.Page.FontFamilies; script?: string };
  /** Bytes of memory the page's browser may hold (watchMemory); unbounded when absent. */
  maxMemory?: number;
}

/** What a page's runtime records at every seek: the time, and each media element's gain then. */
export type GainSamples = Array<[number, Record<string, number>]>;

/** A loaded composition that can be seeked and captured, one frame at a time; the capture stage takes its frames (3-capture/take-frame.ts). */
export interface CompositionPage {
  info: CompositionInfo;
  /** The browser context the page is in: other pages of the same render open beside it (a snapshot's contact sheet). */
  readonly context: BrowserContext;
  /** Seeks to `t` seconds; resolves to whether the frame may have changed since the last seek. */
  seek(t: number): Promise<boolean>;
  /** Fails on an asset that failed to load since the last check (unless missing assets are allowed). */
  checkAssets(): void;
  /** Takes the frame the page shows, in its capture mode, failing as page-hung after the ready timeout. */
  capture(settings: FrameImageSettings): Promise<FrameResult>;
  /** As `capture`, but always an image: the frame after frames this page did not draw itself. */
  captureImage(settings: FrameImageSettings): Promise<FrameResult & { kind: "image" }>;
  /** What the page paints now, to compare with another page's frame without capturing (paint-fingerprint.ts). */
  fingerprint(): Promise<PaintFingerprint>;
  /** Whether a frame was captured since the page last loaded, so that a repeat has something to repeat. */
  readonly drawn: boolean;
  /** Plays the frame at `t` seconds without capturing it: history for the frames after it. */
  replayAt(t: number): Promise<void>;
  /** Whether the page's state builds up from frame to frame (ComposeApi.needsHistory), as of its last seek. */
  readonly needsHistory: boolean;
  /** Loads the page again, as it was before its first seek, with its media prepared as before. */
  reload(): Promise<void>;
  readonly stats: FrameStats;
  describeMedia(): Promise<MediaDescription[]>;
  /** Hands the page what the renderer learnt of its media; updates `info`. */
  prepareMedia(plans: MediaPlan[]): Promise<void>;
  /** Every media element's gain at every seek so far (ComposeApi.gainLog). */
  gainLog(): Promise<GainSamples>;
  /** Whether a gain may have moved since the page became ready (ComposeApi.volumesMayChange). */
  volumesMayChange(): Promise<boolean>;
  /** The families the page's text asks for that no font of their name drew, as loaded. */
  fontFallbacks(): Promise<FontFallback[]>;
}

/** A URL of the project server as the project's own path (`parts/slide.html`); other URLs as they are. */
function projectPath(url: string, pageUrl: string): string {
  const root = `${new URL(pageUrl).origin}/`;
  return url.startsWith(root) ? decodeURIComponent(url.slice(root.length).split(/[?#]/)[0]!) : url;
}

export function describePageError(error: PageError, pageUrl: string): string {
  const where = error.source ? ` (${projectPath(error.source, pageUrl)}:${error.line}:${error.column})` : "";
  return `page script error: ${error.message}${where}`;
}

/** Fails on the page's first script error, named after a failed load it may follow from (AssetWatch.pageError). */
async function failOnPageErrors(watch: PageWatch, assets: AssetWatch, pageUrl: string): Promise<void> {
  const { result } = await watch.send("Runtime.evaluate", {
    expression: "JSON.stringify(window.__compose ? window.__compose.errors : [])",
    returnByValue: true,
  });
  const errors = JSON.parse(String(result.value)) as PageError[];
  if (errors[0]) throw assets.pageError(describePageError(errors[0], pageUrl));
}

/** What a page that never becomes ready is still waiting for, in words. */
const PENDING_EXPRESSION = `JSON.stringify((() => {
  const pending = [];
  if (document.readyState !== "complete") pending.push("the page to finish loading (" + document.readyState + ")");
  if (document.fonts && document.fonts.status !== "loaded") pending.push("fonts");
  for (const img of document.images) if (!img.complete) pending.push("image " + (img.currentSrc || img.src));
  for (const label of (window.__compose && window.__compose.waiting) || []) pending.push("__compose.waitFor(" + JSON.stringify(label) + ")");
  const handlersIn = (frame) => {
    try {
      let count = (frame.__compose && frame.__compose.pendingSeekHandlers) || 0;
      for (const child of frame.document.querySelectorAll("iframe")) count += handlersIn(child.contentWindow);
      return count;
    } catch {
      return 0;
    }
  };
  const handlers = handlersIn(window);
  if (handlers > 0) pending.push(handlers + " promise" + (handlers === 1 ? "" : "s") + " returned by __compose.onSeek handlers");
  return pending;
})())`;

/**
 * Evaluates an expression whose promise the page may never settle; a timeout names what is
 * pending, or that the page stopped answering altogether.
 */
function evaluateWithin(cdp: CDPSession, watch: PageWatch, expression: string, timeoutMs: number, what: string) {
  const evaluation = cdp.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  return watch.within(evaluation, timeoutMs, () => notReady(watch, what, timeoutMs));
}

async function notReady(watch: PageWatch, what: string, timeoutMs: number): Promise<RenderError> {
  const { result } = await watch.send("Runtime.evaluate", { expression: PENDING_EXPRESSION, returnByValue: true });
  // Nothing the page names is pending: no image, font, waitFor or onSeek promise; it is still working.
  const pending =
    (JSON.parse(String(result.value)) as string[]).join(", ") || "the page to settle (no image, font, __compose.waitFor or onSeek promise is pending)";
  return new RenderError("not-ready", `${what} within ${timeoutMs / 1000} s: waiting for ${pending}`);
}

async function waitUntilReady(cdp: CDPSession, watch: PageWatch, assets: AssetWatch, timeoutMs: number, pageUrl: string): Promise<CompositionInfo> {
  const outcome = await evaluateWithin(cdp, watch, "window.__compose.ready()", timeoutMs, "the composition did not become ready");
  await failOnPageErrors(watch, assets, pageUrl);
  if (outcome.exceptionDetails) {
    const message = outcome.exceptionDetails.exception?.description?.split("\n")[0] ?? outcome.exceptionDetails.text;
    throw new RenderError("invalid-composition", message.replace(/^Error: /, ""));
  }
  return outcome.result.value as CompositionInfo;
}

/** Fails the page as limit-exceeded once its browser holds more than `limit` bytes, its renderers killed; watched while the page is open. */
function boundMemory(page: Page, watch: PageWatch, limit: number | undefined): void {
  const browser = page.browser();
  const pid = browser.process()?.pid;
  if (pid === undefined || limit === undefined) return;
  const stop = watchMemory(pid, limit, (held) =>
    watch.fail(
      new RenderError(
        "limit-exceeded",
        `the page held ${formatMemorySize(held)} of memory ${watch.where}, over the limit of ${formatMemorySize(limit)} (its script heap, typed arrays, canvases and images): use less, or raise the limit with --max-memory`,
      ),
    ),
  );
  // A kept browser outlives the page: the watch ends with whichever goes first.
  page.once("close", stop);
  browser.once("disconnected", stop);
}

export async function openCompositionPage(context: BrowserContext, options: CompositionPageOptions): Promise<CompositionPage> {
  const opened = (async () => {
    const page = await newPage(context, options, options.captureMode);
    return { page, cdp: await page.createCDPSession() };
  })();
  const { page, cdp } = await withDeadline(opened, PLAIN_CALL_MS, () => {
    throw new RenderError("browser-crashed", `the browser did not open a page within ${PLAIN_CALL_MS / 1000} s`);
  });
  const watch = new PageWatch(page, cdp);
  boundMemory(page, watch, options.maxMemory);
  await watch.send("Emulation.setDeviceMetricsOverride", {
    width: options.width,
    height: options.height,
    deviceScaleFactor: options.deviceScaleFactor,
    mobile: false,
  });
  if (options.transparent) {
    await watch.send("Emulation.setDefaultBackgroundColorOverride", { color: { r: 0, g: 0, b: 0, a: 0 } });
  }
  await watch.guard(page.evaluateOnNewDocument(FONT_SOURCES_SCRIPT));
  if (options.fonts) {
    await watch.send("Page.setFontFamilies", { fontFamilies: options.fonts.generic });
    if (options.fonts.script) await watch.guard(page.evaluateOnNewDocument(options.fonts.script));
  }
  const assets = await AssetWatch.start(cdp, {
    baseUrl: new URL(".", options.url).href,
    allowMissing: options.allowMissingAssets,
    warn: (message) => options.warn("missing-asset", message),
  });
  await watch.guard(page.evaluateOnNewDocument(runtimeSource(options.boot)));
  if (options.captureMode === "beginframe") await watch.send("HeadlessExperimental.enable");
  const load = async (): Promise<CompositionInfo> => {
    watch.where = "while loading";
    watch.release();
    // The runtime's ready() waits for the load event itself; a timeout here would not say what for.
    const loading = page.goto(options.url, { waitUntil: "domcontentloaded", timeout: options.readyTimeoutMs });
    await watch.guard(loading).catch(async (error: unknown) => {
      if (error instanceof TimeoutError) {
        throw await watch.overdue(options.readyTimeoutMs, () => notReady(watch, "the composition did not load", options.readyTimeoutMs));
      }
      throw error;
    });
    const ready = await waitUntilReady(cdp, watch, assets, options.readyTimeoutMs, options.url);
    assets.check();
    await watch.holdTo(page.url());
    return ready;
  };
  const info = await load();
  const capturer = createFrameCapturer(cdp, options.captureMode);
  const fingerprint = createPaintFingerprinter(watch.send);

  const evaluate = async <T>(expression: string, what: string): Promise<T> => {
    const { result, exceptionDetails } = await evaluateWithin(cdp, watch, expression, options.readyTimeoutMs, what);
    if (exceptionDetails) {
      await failOnPageErrors(watch, assets, options.url);
      const message = exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text;
      throw new RenderError("invalid-composition", message.replace(/^Error: /, ""));
    }
    return result.value as T;
  };

  const drewNothing = async () => new RenderError("page-hung", `the browser drew no frame ${watch.where} within ${options.readyTimeoutMs / 1000} s`);
  const stats: FrameStats = { frames: 0, reused: 0, shared: 0, seekMs: 0, captureMs: 0, fingerprintMs: 0, replayedFrames: 0, replayMs: 0 };
  let needsHistory = info.needsHistory;
  let mediaPlans: MediaPlan[] | undefined;

  /** Seeks to `t`; resolves to whether the frame may have changed since the last seek. */
  const seek = async (t: number): Promise<boolean> => {
    watch.where = options.fps ? `at frame ${Math.round(t * options.fps)} (${t.toFixed(3)} s)` : `at ${t.toFixed(3)} s`;
    const { result, exceptionDetails } = await evaluateWithin(
      cdp,
      watch,
      // One round trip: seek, then report failed page scripts, whether anything changed, and history.
      `window.__compose.seek(${t}).then(() => [window.__compose.errors.length, window.__compose.changed, window.__compose.needsHistory])`,
      options.readyTimeoutMs,
      `the frame at ${t.toFixed(3)} s was not ready`,
    );
    const [errorCount, changed, history] = (result.value ?? [1, true, true]) as [number, boolean, boolean];
    if (exceptionDetails || errorCount !== 0) await failOnPageErrors(watch, assets, options.url);
    if (exceptionDetails) {
      throw new RenderError(
        "page-error",
        `page script error while seeking to ${t.toFixed(3)} s: ${exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text}`,
      );
    }
    needsHistory = history;
    return changed;
  };

  const compositionPage: CompositionPage = {
    info,
    context,
    stats,
    seek,
    checkAssets: () => assets.check(),
    capture: (settings) => watch.within(capturer.take(settings), options.readyTimeoutMs, drewNothing),
    captureImage: (settings) => watch.within(capturer.takeImage(settings), options.readyTimeoutMs, drewNothing),
    fingerprint,
    get drawn() {
      return capturer.drawn;
    },
    get needsHistory() {
      return needsHistory;
    },
    describeMedia: () => {
      watch.where = "while listing its media";
      return evaluate<MediaDescription[]>("window.__compose.describeMedia()", "the page did not list its media");
    },
    async prepareMedia(plans) {
      watch.where = "while preparing its media";
      mediaPlans = plans;
      compositionPage.info = await evaluate<CompositionInfo>(`window.__compose.prepareMedia(${JSON.stringify(plans)})`, "the page did not take its media");
    },
    fontFallbacks: () => {
      watch.where = "while listing the fonts its text is drawn with";
      return watch.within(
        findFontFallbacks(cdp),
        options.readyTimeoutMs,
        async () => new RenderError("page-hung", `the page did not say which fonts drew its text within ${options.readyTimeoutMs / 1000} s`),
      );
    },
    gainLog: () => evaluate<GainSamples>("window.__compose.gainLog()", "the page did not report its media gains"),
    volumesMayChange: () => evaluate<boolean>("window.__compose.volumesMayChange", "the page did not report whether its volumes change"),
    async reload() {
      await load();
      // A reloaded page has drawn nothing yet.
      capturer.restart();
      if (mediaPlans) await compositionPage.prepareMedia(mediaPlans);
    },
    async replayAt(t: number): Promise<void> {
      const started = performance.now();
      await seek(t);
      stats.replayedFrames++;
      stats.replayMs += performance.now() - started;
    },
  };
  return compositionPage;
}
