import { dirname, join } from "node:path";
import { noDurationMessage, printable, type RenderOptions } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import { BrowserPool } from "../browser/browser-pool.js";
import type { CompositionPage } from "../browser/composition-page.js";
import { createRuling, effectivePolicy, refusalReporter, type NetworkPolicy, type OperatorNetworkPolicy } from "../browser/network-policy.js";
import { startPolicyProxy } from "../browser/policy-proxy.js";
import type { CaptureMode } from "../browser/frame-capturer.js";
import { refusal } from "../composition/lint-before-render.js";
import { loadComposition, type LoadedComposition } from "../composition/read-composition.js";
import { frameImageFormat } from "../encode/encoder-args.js";
import { cacheRoot } from "../media/media-cache.js";
import { prepareMedia, type PreparedMedia } from "../media/prepare-media.js";
import { removeOrphanedTemp } from "../output/owned-temp.js";
import { serveProject } from "../serve/project-server.js";
import { warnOnRootSize } from "../composition/composition-warnings.js";
import { openPages, type PageNetwork } from "./open-pages.js";
import { preflight } from "../composition/preflight.js";
import type { RenderEvent } from "../common/render-events.js";
import { cancelledError, RenderError, throwIfAborted } from "../common/render-error.js";
import { checkFrames, checkSize, resolveLimits, type RenderLimits } from "../composition/render-limits.js";

/** What opening a composition needs: the part of a render request before capture. */
export interface SessionRequest {
  /** The composition's HTML file. */
  composition: string;
  /** Validated options (validateRenderOptions in @compose/core). */
  options: RenderOptions;
  /** How frames are taken from the browser; BeginFrame unless the browser cannot do it. */
  captureMode?: CaptureMode;
  /** How long a page may take to load and become ready, and each frame to settle. */
  readyTimeoutMs?: number;
  /** Reuse a frame's image when the page reports that nothing changed since the previous one (default true). */
  reuseFrames?: boolean;
  /** Caps on frames and size; DEFAULT_LIMITS where absent. */
  limits?: Partial<RenderLimits>;
  /** The operator's network policy, which the options' `network` may only narrow; everything when absent. */
  network?: OperatorNetworkPolicy;
}

export interface RenderHooks {
  onEvent?: (event: RenderEvent) => void;
  signal?: AbortSignal;
}

type Cleanup = () => Promise<void> | void;

/** What a step of a render holds while it runs; everything in it is released when the step ends. */
export interface RenderContext {
  emit: (event: RenderEvent) => void;
  pool: BrowserPool;
  signal: AbortSignal | undefined;
  /** Run in reverse order when the step ends, however it ends. */
  cleanups: Cleanup[];
}

/** A composition loaded in one page per worker, its media probed and prepared, its duration known. */
export interface CompositionSession {
  composition: LoadedComposition;
  projectRoot: string;
  pages: CompositionPage[];
  mode: CaptureMode;
  media: PreparedMedia;
  info: CompositionInfo & { duration: number; durationSource: NonNullable<CompositionInfo["durationSource"]> };
}

function explainFailure(error: unknown, pool: BrowserPool, signal: AbortSignal | undefined): RenderError {
  // The cause behind the one line, for reports; the CLI prints its own error the same way.
  if (process.env.COMPOSE_DEBUG) console.error(error);
  if (signal?.aborted) return cancelledError();
  if (error instanceof RenderError) return error;
  if (pool.crashed) return new RenderError("browser-crashed", "the browser exited unexpectedly during the render");
  const message = error instanceof Error ? error.message : String(error);
  // What no step explained is ours, not the encoder's: the code says so.
  return new RenderError("internal-error", message.split("\n")[0] ?? message);
}

/** Warnings and failures carry text from the composition and its user: shown as one printable line. */
function printableEvents(onEvent: (event: RenderEvent) => void): (event: RenderEvent) => void {
  return (event) => onEvent(event.type === "warning" || event.type === "failed" ? { ...event, message: printable(event.message) } : event);
}

/**
 * Runs one step that uses browsers: cancellation kills them at once, a failure becomes one
 * RenderError and a `failed` event, and browsers and cleanups are released whatever happens.
 */
export async function withRenderContext<T>(hooks: RenderHooks, step: (context: RenderContext) => Promise<T>): Promise<T> {
  const context: RenderContext = {
    emit: printableEvents(hooks.onEvent ?? (() => undefined)),
    pool: new BrowserPool(),
    signal: hooks.signal,
    cleanups: [],
  };
  const onAbort = () => context.pool.killAll();
  hooks.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await step(context);
  } catch (error) {
    const failure = explainFailure(error, context.pool, hooks.signal);
    context.emit({ type: "failed", code: failure.code, message: failure.message });
    throw failure;
  } finally {
    hooks.signal?.removeEventListener("abort", onAbort);
    await context.pool.closeAll();
    for (const cleanup of context.cleanups.reverse()) await cleanup();
  }
}

/** The render's network policy, and the proxy that holds WebSockets to it too, closed with the render. */
async function pageNetwork(policy: NetworkPolicy, baseUrl: string, emit: (event: RenderEvent) => void, context: RenderContext): Promise<PageNetwork> {
  const ruling = createRuling(policy, new URL(baseUrl).origin);
  const onRefused = refusalReporter(emit);
  if (policy.mode === "all") return { policy, ruling, onRefused };
  const proxy = await startPolicyProxy(ruling, onRefused);
  context.cleanups.push(() => proxy.close());
  return { policy, ruling, onRefused, proxy: proxy.url };
}

/** Everything before the first frame: checks, the project server, the pages, the media. */
export async function openSession(request: SessionRequest, workers: number, context: RenderContext): Promise<CompositionSession> {
  const { options } = request;
  const { emit, signal } = context;
  throwIfAborted(signal);
  await removeOrphanedTemp();
  const composition = await loadComposition(request.composition);
  const limits = resolveLimits(request.limits);
  checkSize(composition.id, composition.width, composition.height, limits);
  const declared = composition.metadata.duration;
  if (declared !== undefined) checkFrames(composition.id, declared, options.fps, limits);
  await preflight(composition, options, emit);

  const projectRoot = dirname(composition.file);
  const server = await serveProject(projectRoot, join(cacheRoot(), "frames"));
  context.cleanups.push(() => server.close());

  const network = await pageNetwork(effectivePolicy(request.network, options), server.baseUrl, emit, context);
  const { pages, mode } = await openPages(request, composition, workers, context.pool, server.baseUrl, emit, network);
  const media = await prepareMedia(pages, {
    network,
    projectRoot,
    baseUrl: server.baseUrl,
    fps: options.fps,
    image: frameImageFormat(options.format),
    signal,
  });
  const { info } = pages[0]!;
  warnOnRootSize(composition, info, emit);
  // What lint finds in the source, found again in the live DOM that scripts changed.
  const [timingError] = info.timingErrors;
  if (timingError) throw refusal(`timing-${timingError.code}`, timingError.message);
  if (info.duration === undefined || info.durationSource === undefined) throw refusal("no-duration", noDurationMessage(composition.id));
  checkFrames(composition.id, info.duration, options.fps, limits);
  return { composition, projectRoot, pages, mode, media, info: { ...info, duration: info.duration, durationSource: info.durationSource } };
}
