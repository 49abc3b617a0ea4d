export { render, type RenderRequest, type RenderHooks } from "./render/render.js";
// For renders that share browsers one after another (a batch's rows).
export { KeptBrowsers } from "./page/browser-pool.js";
export { SharedFrames, type RowFrames } from "./3-capture/shared-frames.js";
// For `compose snapshot`: moments of a composition captured as render captures them, as a contact sheet or frame files.
export { snapshot, type SnapshotRequest } from "./render/snapshot.js";
// For `compose info`: what only a running page knows of a composition, loaded as render loads it.
export { loadPageFacts, type PageFacts, type PageMedia } from "./render/page-facts.js";
export type { LoadRequest } from "./1-load/load-composition.js";
// The events render() emits, as core declares them.
export type {
  RenderEvent,
  RenderStartedEvent,
  RenderProgressEvent,
  RenderWarningEvent,
  RenderFinishedEvent,
  RenderFailedEvent,
  FrameStats,
  HistoryPath,
} from "@compose/core";
export { RenderError, type RenderErrorCode } from "./common/render-error.js";
export { DEFAULT_LIMITS, type RenderLimits } from "./1-load/composition/render-limits.js";
export { narrower, ruleOnConnection, type NetworkPolicy, type OperatorNetworkPolicy, type Ruling } from "./web/network-policy.js";
export type { CaptureMode } from "./page/frame-capturer.js";
export { findBrowserExecutable, BrowserNotFoundError } from "./page/launch-browser.js";

// For `compose doctor` and `compose preview`: the same browser launch and page runtime as render.
export { launchBrowser, type LaunchOptions } from "./page/launch-browser.js";
export { runtimeBootCall, runtimeBundle, runtimeSource } from "./page/runtime-source.js";
// For `compose preview`: the media plans render hands its pages, for the preview's own page.
export { planMedia, framesDirectory, FRAMES_PREFIX, type MediaPlanRequest } from "./1-load/plan-media.js";

// For distributed renders (the producer's workers): one plan with a range per chunk (its audio
// mixed once), each range captured and encoded from that plan, the parts assembled as render() does.
export { planChunks, type ChunksPlanRequest, type ChunksPlan } from "./render/plan-chunks.js";
export { renderRange, type RangeRequest } from "./render/render-range.js";
export { assembleChunks, type ChunksAssembly, type JoinedOutput } from "./render/assemble-chunks.js";
// The coordinator of a distributed render ends it as every render ends, its assembly committing the output.
export { endRender, type RenderEnding, type OutputCommit, type CaptureReport } from "./render/end-render.js";
export { planToJson, planFromJson } from "./2-plan/plan-json.js";
export type { RenderPlan } from "./2-plan/render-plan.js";
export { outputProblem } from "./output/verify-output.js";
export type { FrameRange } from "./common/frame-ranges.js";
// The chunks' progress and time, reported as render() reports its workers'.
export { ProgressMeter } from "./3-capture/progress-meter.js";
export { RENDER_EVENT_TYPES } from "@compose/core";
export { audioFileName } from "./output/output-names.js";

export * from "./project.js";
// For compose serve and compose worker: what killed renders left in --outputs, removed at start.
export { removeOrphanedStaging } from "./output/staged-output.js";
export { killChildProcesses, trackChild } from "./common/child-processes.js";
