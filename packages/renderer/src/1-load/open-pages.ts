import { basename } from "node:path";
import { FORMAT_TABLE, type RenderOptions } from "@compose/core";
import type { BrowserPool } from "../page/browser-pool.js";
import { openCompositionPage, type CompositionPage, type CompositionPageOptions } from "../page/composition-page.js";
import type { CaptureMode } from "../page/frame-capturer.js";
import { drawnScale } from "../page/device-scale.js";
import { routeRequests, type PageNetwork } from "../web/network-policy.js";
import type { RenderEvent } from "@compose/core";
import { RenderError } from "../common/render-error.js";
import type { SourceComposition } from "./composition/read-composition.js";

export const DEFAULT_READY_TIMEOUT_MS = 30_000;

/** What every page of one render is opened with. */
export interface PageSetup {
  composition: SourceComposition;
  options: RenderOptions;
  baseUrl: string;
  network: PageNetwork;
  pool: BrowserPool;
  readyTimeoutMs: number | undefined;
  /** The browsers' fontconfig file and the pages' fonts (the default set, the project's packages). */
  fonts: { fontconfigFile: string; page: NonNullable<CompositionPageOptions["fonts"]> };
  /** Values for sub-composition hosts, in place of their data-variable-values. */
  instances: Record<string, Record<string, unknown>> | undefined;
  /** Every page of a render loads the same assets: warnOnce tells each finding once, not once per page. */
  warn: (code: string, message: string) => void;
  /** Bytes of memory each page's browser may hold. */
  maxMemory: number;
}

export function warnOnce(emit: (event: RenderEvent) => void): (code: string, message: string) => void {
  const told = new Set<string>();
  return (code, message) => {
    if (told.has(message)) return;
    told.add(message);
    emit({ type: "warning", code, message });
  };
}

/** Opens `count` browsers with one ready page each, in `mode`. */
export async function openPages(setup: PageSetup, count: number, mode: CaptureMode): Promise<CompositionPage[]> {
  const { composition, options, network, pool } = setup;
  const deviceScaleFactor = drawnScale(options.scale);
  const contexts = await pool.launch(count, {
    deviceScaleFactor,
    beginFrameControl: mode === "beginframe",
    gpu: options.browserGpu ?? !options.docker,
    proxy: network.proxy,
    fontconfigFile: setup.fonts.fontconfigFile,
  });
  await Promise.all(
    contexts.map(async (context) => {
      const routing = await routeRequests(context.browser(), network);
      // A browser another render takes next must not route its requests by this render's policy.
      pool.onRelease(context.browser(), () => routing.detach());
    }),
  );
  return Promise.all(
    contexts.map((context) =>
      openCompositionPage(context, {
        url: setup.baseUrl + encodeURIComponent(basename(composition.file)),
        width: composition.width,
        height: composition.height,
        deviceScaleFactor,
        transparent: FORMAT_TABLE[options.format].alpha,
        captureMode: mode,
        boot: { variables: options.variables ?? {}, instances: setup.instances },
        fps: options.fps,
        readyTimeoutMs: setup.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
        allowMissingAssets: options.allowMissingAssets,
        warn: setup.warn,
        fonts: setup.fonts.page,
        maxMemory: setup.maxMemory,
      }),
    ),
  );
}

/** True when the browser lacks BeginFrame control (not the headless shell), so screenshots must do. */
function beginFrameUnsupported(error: unknown): boolean {
  return !(error instanceof RenderError) && /HeadlessExperimental|BeginFrame/i.test(String(error));
}

/**
 * The page that loads the composition for the render: in BeginFrame mode where the browser has it,
 * else (unless a mode was asked for) with screenshots. Later pages are opened in the mode it found.
 */
export async function openFirstPage(setup: PageSetup, requested: CaptureMode | undefined): Promise<{ page: CompositionPage; mode: CaptureMode }> {
  const mode = requested ?? "beginframe";
  try {
    const [page] = await openPages(setup, 1, mode);
    return { page: page!, mode };
  } catch (error) {
    if (mode !== "beginframe" || requested || !beginFrameUnsupported(error)) throw error;
    await setup.pool.closeAll();
    setup.warn("screenshot-capture", "this browser has no BeginFrame control (use chromium-headless-shell); capturing with screenshots, which is slower");
    const [page] = await openPages(setup, 1, "screenshot");
    return { page: page!, mode: "screenshot" };
  }
}
