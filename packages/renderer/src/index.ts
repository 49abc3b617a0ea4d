export { render, type RenderRequest, type RenderHooks } from "./render/render.js";
export type { RenderEvent, RenderStartedEvent, RenderProgressEvent, RenderWarningEvent, RenderFinishedEvent, RenderFailedEvent } from "./render/render-events.js";
export { RenderError, type RenderErrorCode } from "./render/render-error.js";
export type { CaptureMode } from "./capture/frame-capturer.js";
export { findBrowserExecutable, BrowserNotFoundError } from "./browser/launch-browser.js";

// For `compose doctor` and `compose preview`: the same browser launch and page runtime as render.
export { launchBrowser, type LaunchOptions } from "./browser/launch-browser.js";
export { runtimeSource } from "./browser/runtime-source.js";
