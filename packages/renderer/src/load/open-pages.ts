import { basename } from "node:path";
import { TRANSPARENT_FORMATS } from "@compose/core";
import type { BrowserPool } from "../browser/browser-pool.js";
import { openCompositionPage, type CompositionPage } from "../browser/composition-page.js";
import { enforceNetworkPolicy, type NetworkPolicy, type Ruling } from "../browser/network-policy.js";
import type { CaptureMode } from "../browser/frame-capturer.js";
import type { LoadedComposition } from "../composition/read-composition.js";
import { frameImageFormat } from "../encode/encoder-args.js";
import type { RenderEvent } from "../common/render-events.js";
import { RenderError } from "../common/render-error.js";
import type { SessionRequest as RenderRequest } from "./open-composition.js";

const DEFAULT_READY_TIMEOUT_MS = 30_000;

/** What the pages may load, and who hears of a refused request. */
export interface PageNetwork {
  policy: NetworkPolicy;
  /** What the policy says of a URL. */
  ruling: (url: string) => Promise<Ruling>;
  onRefused: (url: string, reason: string) => void;
  /** The policy proxy the browsers connect through (for WebSockets), when the policy refuses anything. */
  proxy?: string;
}

export function readyTimeout(request: RenderRequest): number {
  return request.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
}

async function openPagesIn(
  mode: CaptureMode,
  request: RenderRequest,
  composition: LoadedComposition,
  workers: number,
  pool: BrowserPool,
  baseUrl: string,
  emit: (event: RenderEvent) => void,
  network: PageNetwork,
): Promise<CompositionPage[]> {
  const { options } = request;
  // Every worker's page loads the same assets: each finding is told once.
  const told = new Set<string>();
  const warn = (code: string, message: string) => {
    if (told.has(message)) return;
    told.add(message);
    emit({ type: "warning", code, message });
  };
  const browsers = await pool.launch(workers, {
    beginFrameControl: mode === "beginframe",
    gpu: options.browserGpu ?? !options.docker,
    proxy: network.proxy,
  });
  if (network.policy.mode !== "all") {
    await Promise.all(browsers.map((browser) => enforceNetworkPolicy(browser, network.ruling, network.onRefused)));
  }
  return Promise.all(
    browsers.map((browser) =>
      openCompositionPage(browser, {
        url: baseUrl + encodeURIComponent(basename(composition.file)),
        width: composition.width,
        height: composition.height,
        transparent: TRANSPARENT_FORMATS.includes(options.format),
        captureMode: mode,
        image: frameImageFormat(options.format),
        quality: options.quality,
        boot: { variables: options.variables ?? {} },
        fps: options.fps,
        readyTimeoutMs: readyTimeout(request),
        reuseFrames: request.reuseFrames ?? true,
        allowMissingAssets: options.allowMissingAssets,
        warn,
      }),
    ),
  );
}

/** True when the browser lacks BeginFrame control (not the headless shell), so screenshots must do. */
function beginFrameUnsupported(error: unknown): boolean {
  return !(error instanceof RenderError) && /HeadlessExperimental|BeginFrame/i.test(String(error));
}

/** One browser and page per worker, all ready, in BeginFrame mode where the browser has it. */
export async function openPages(
  request: RenderRequest,
  composition: LoadedComposition,
  workers: number,
  pool: BrowserPool,
  baseUrl: string,
  emit: (event: RenderEvent) => void,
  network: PageNetwork,
): Promise<{ pages: CompositionPage[]; mode: CaptureMode }> {
  const mode = request.captureMode ?? "beginframe";
  try {
    return { pages: await openPagesIn(mode, request, composition, workers, pool, baseUrl, emit, network), mode };
  } catch (error) {
    if (mode !== "beginframe" || request.captureMode || !beginFrameUnsupported(error)) throw error;
    await pool.closeAll();
    emit({
      type: "warning",
      code: "screenshot-capture",
      message: "this browser has no BeginFrame control (use chromium-headless-shell); capturing with screenshots, which is slower",
    });
    return { pages: await openPagesIn("screenshot", request, composition, workers, pool, baseUrl, emit, network), mode: "screenshot" };
  }
}
