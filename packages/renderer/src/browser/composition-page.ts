import { TimeoutError, type Browser, type CDPSession, type Page } from "puppeteer-core";
import type { QualityName } from "@compose/core";
import type { ComposeBootConfig, CompositionInfo, MediaDescription, MediaPlan, PageError } from "@compose/runtime";
import { createFrameCapturer, type CaptureMode } from "../capture/frame-capturer.js";
import type { FrameImageFormat } from "../encode/encoder-args.js";
import { RenderError } from "../render/render-error.js";
import { AssetWatch } from "./asset-watch.js";
import { runtimeSource } from "./runtime-source.js";

export interface CompositionPageOptions {
  url: string;
  width: number;
  height: number;
  transparent: boolean;
  captureMode: CaptureMode;
  image: FrameImageFormat;
  /** The render's quality preset, which sets the JPEG quality of mp4 frames. */
  quality: QualityName;
  boot: ComposeBootConfig;
  readyTimeoutMs: number;
  /** Reuse the previous frame's image when the page says the seek changed nothing. */
  reuseFrames: boolean;
  /** Warn of assets that fail to load instead of failing the render. */
  allowMissingAssets: boolean;
  warn: (code: string, message: string) => void;
}

/** Where the time of one page's frames went, for the benchmark and the finished event. */
export interface FrameStats {
  frames: number;
  /** Frames whose image was reused because the seek changed nothing. */
  reused: number;
  seekMs: number;
  captureMs: number;
}

/** A loaded composition that can be seeked and captured, one frame at a time. */
export interface CompositionPage {
  info: CompositionInfo;
  /**
   * Seeks to `t` seconds and captures that frame. A frame known to equal the previous one comes
   * back as the previous frame's very Buffer, which the render loop takes as a repeat.
   */
  frameAt(t: number): Promise<Buffer>;
  readonly stats: FrameStats;
  describeMedia(): Promise<MediaDescription[]>;
  /** Hands the page what the renderer learnt of its media; updates `info`. */
  prepareMedia(plans: MediaPlan[]): Promise<void>;
}

async function createPage(browser: Browser, options: CompositionPageOptions): Promise<Page> {
  if (options.captureMode === "screenshot") return browser.newPage();
  const session = await browser.target().createCDPSession();
  const { targetId } = await session.send("Target.createTarget", {
    url: "about:blank",
    enableBeginFrameControl: true,
    width: options.width,
    height: options.height,
  });
  await session.detach();
  const target = await browser.waitForTarget((candidate) => (candidate as unknown as { _targetId: string })._targetId === targetId);
  const page = await target.page();
  if (!page) throw new Error("the browser did not open a page for the composition");
  return page;
}

export function describePageError(error: PageError): string {
  const where = error.source ? ` (${error.source}:${error.line}:${error.column})` : "";
  return `page script error: ${error.message}${where}`;
}

async function failOnPageErrors(cdp: CDPSession): Promise<void> {
  const { result } = await cdp.send("Runtime.evaluate", {
    expression: "JSON.stringify(window.__compose ? window.__compose.errors : [])",
    returnByValue: true,
  });
  const errors = JSON.parse(String(result.value)) as PageError[];
  if (errors[0]) throw new RenderError("page-error", describePageError(errors[0]));
}

/** What a page that never becomes ready is still waiting for, in words. */
const PENDING_EXPRESSION = `JSON.stringify((() => {
  const pending = [];
  if (document.readyState !== "complete") pending.push("the page to finish loading (" + document.readyState + ")");
  if (document.fonts && document.fonts.status !== "loaded") pending.push("fonts");
  for (const img of document.images) if (!img.complete) pending.push("image " + (img.currentSrc || img.src));
  return pending;
})())`;

/** Evaluates an expression whose promise the page may never settle; a timeout names what is pending. */
async function evaluateWithin(cdp: CDPSession, expression: string, timeoutMs: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const evaluation = cdp.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  const outcome = await Promise.race([evaluation, timeout]).finally(() => clearTimeout(timer));
  if (outcome !== "timeout") return outcome;
  throw await notReady(cdp, what, timeoutMs);
}

async function notReady(cdp: CDPSession, what: string, timeoutMs: number): Promise<RenderError> {
  const { result } = await cdp.send("Runtime.evaluate", { expression: PENDING_EXPRESSION, returnByValue: true });
  const pending = (JSON.parse(String(result.value)) as string[]).join(", ") || "promises handed to __compose.onSeek";
  return new RenderError("not-ready", `${what} within ${timeoutMs / 1000} s: waiting for ${pending}`);
}

async function waitUntilReady(cdp: CDPSession, timeoutMs: number): Promise<CompositionInfo> {
  const outcome = await evaluateWithin(cdp, "window.__compose.ready()", timeoutMs, "the composition did not become ready");
  await failOnPageErrors(cdp);
  if (outcome.exceptionDetails) {
    const message = outcome.exceptionDetails.exception?.description?.split("\n")[0] ?? outcome.exceptionDetails.text;
    throw new RenderError("invalid-composition", message.replace(/^Error: /, ""));
  }
  return outcome.result.value as CompositionInfo;
}

export async function openCompositionPage(browser: Browser, options: CompositionPageOptions): Promise<CompositionPage> {
  const page = await createPage(browser, options);
  const cdp = await page.createCDPSession();
  await cdp.send("Emulation.setDeviceMetricsOverride", {
    width: options.width,
    height: options.height,
    deviceScaleFactor: 1,
    mobile: false,
  });
  if (options.transparent) {
    await cdp.send("Emulation.setDefaultBackgroundColorOverride", { color: { r: 0, g: 0, b: 0, a: 0 } });
  }
  const assets = await AssetWatch.start(cdp, {
    baseUrl: new URL(".", options.url).href,
    allowMissing: options.allowMissingAssets,
    warn: (message) => options.warn("missing-asset", message),
  });
  await page.evaluateOnNewDocument(runtimeSource(options.boot));
  if (options.captureMode === "beginframe") await cdp.send("HeadlessExperimental.enable");
  // The runtime's ready() waits for the load event itself; a timeout here would not say what for.
  await page.goto(options.url, { waitUntil: "domcontentloaded", timeout: options.readyTimeoutMs }).catch(async (error: unknown) => {
    if (error instanceof TimeoutError) throw await notReady(cdp, "the composition did not load", options.readyTimeoutMs);
    throw error;
  });
  const info = await waitUntilReady(cdp, options.readyTimeoutMs);
  assets.check();
  const capture = createFrameCapturer(cdp, options.captureMode, options.image, options.quality);

  const evaluate = async <T>(expression: string, what: string): Promise<T> => {
    const { result, exceptionDetails } = await evaluateWithin(cdp, expression, options.readyTimeoutMs, what);
    if (exceptionDetails) {
      await failOnPageErrors(cdp);
      const message = exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text;
      throw new RenderError("invalid-composition", message.replace(/^Error: /, ""));
    }
    return result.value as T;
  };

  const stats: FrameStats = { frames: 0, reused: 0, seekMs: 0, captureMs: 0 };
  let previous: Buffer | undefined;
  const compositionPage: CompositionPage = {
    info,
    stats,
    describeMedia: () => evaluate<MediaDescription[]>("window.__compose.describeMedia()", "the page did not list its media"),
    async prepareMedia(plans) {
      compositionPage.info = await evaluate<CompositionInfo>(
        `window.__compose.prepareMedia(${JSON.stringify(plans)})`,
        "the page did not take its media",
      );
    },
    async frameAt(t: number): Promise<Buffer> {
      const seekStarted = performance.now();
      const { result, exceptionDetails } = await evaluateWithin(
        cdp,
        // One round trip: seek, then report failed page scripts and whether anything changed.
        `window.__compose.seek(${t}).then(() => [window.__compose.errors.length, window.__compose.changed])`,
        options.readyTimeoutMs,
        `the frame at ${t.toFixed(3)} s was not ready`,
      );
      const [errorCount, changed] = (result.value ?? [1, true]) as [number, boolean];
      if (exceptionDetails || errorCount !== 0) await failOnPageErrors(cdp);
      if (exceptionDetails) {
        throw new RenderError("page-error", `page script error while seeking to ${t.toFixed(3)} s: ${exceptionDetails.exception?.description?.split("\n")[0] ?? exceptionDetails.text}`);
      }
      assets.check();
      const captureStarted = performance.now();
      stats.frames++;
      stats.seekMs += captureStarted - seekStarted;
      if (options.reuseFrames && !changed && previous) {
        stats.reused++;
        return previous;
      }
      previous = await capture();
      stats.captureMs += performance.now() - captureStarted;
      return previous;
    },
  };
  return compositionPage;
}
