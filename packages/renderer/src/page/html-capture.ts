import type { BrowserContext } from "puppeteer-core";
import { withDeadline } from "../common/deadline.js";
import { RenderError } from "../common/render-error.js";
import { createFrameCapturer, type CaptureMode } from "./frame-capturer.js";
import { newPage } from "./new-page.js";

/** Resolves once every image of the document is decoded and every font it asked for has loaded. */
const SETTLED = "Promise.all([...document.images].map((image) => image.decode())).then(() => document.fonts.ready).then(() => undefined)";

/**
 * Draws a document of our own (no project, no network: its images are data URLs) in a new page of
 * `context` at `width` x `height`, and takes it as a PNG as a composition's frames are taken: in
 * the render's capture mode, at one device pixel per CSS pixel. The page is closed after.
 */
export async function captureHtml(
  context: BrowserContext,
  html: string,
  size: { width: number; height: number },
  mode: CaptureMode,
  timeoutMs: number,
): Promise<Buffer> {
  const page = await newPage(context, size, mode);
  const take = async (): Promise<Buffer> => {
    const cdp = await page.createCDPSession();
    await cdp.send("Emulation.setDeviceMetricsOverride", { width: size.width, height: size.height, deviceScaleFactor: 1, mobile: false });
    if (mode === "beginframe") await cdp.send("HeadlessExperimental.enable");
    await page.setContent(html, { waitUntil: "load", timeout: timeoutMs });
    await page.evaluate(SETTLED);
    const frame = await createFrameCapturer(cdp, mode).take({ image: "png", jpegQuality: 100 });
    if (frame.kind !== "image") throw new Error("the browser drew nothing of the page");
    return frame.data;
  };
  try {
    return await withDeadline(take(), timeoutMs, () => {
      throw new RenderError("page-hung", `the browser did not draw the page within ${timeoutMs / 1000} s`);
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}
