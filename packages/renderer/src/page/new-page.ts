import type { BrowserContext, Page } from "puppeteer-core";
import type { CaptureMode } from "./frame-capturer.js";

/**
 * A new page of `width` x `height` in a browser context, ready to be captured in `mode`: under
 * BeginFrame control (a target created for it) or a plain page for screenshots.
 */
export async function newPage(context: BrowserContext, size: { width: number; height: number }, mode: CaptureMode): Promise<Page> {
  if (mode === "screenshot") return context.newPage();
  const browser = context.browser();
  const session = await browser.target().createCDPSession();
  const { targetId } = await session.send("Target.createTarget", {
    url: "about:blank",
    browserContextId: context.id,
    enableBeginFrameControl: true,
    width: size.width,
    height: size.height,
  });
  await session.detach();
  const target = await browser.waitForTarget((candidate) => (candidate as unknown as { _targetId: string })._targetId === targetId);
  const page = await target.page();
  if (!page) throw new Error("the browser did not open a page");
  return page;
}
