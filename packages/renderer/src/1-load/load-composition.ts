import { dirname, join } from "node:path";
import { FORMAT_TABLE, noDurationMessage, type RenderOptions } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import type { CompositionPage } from "../page/composition-page.js";
import type { CaptureMode } from "../page/frame-capturer.js";
import { createRuling, effectivePolicy, refusalReporter, type NetworkPolicy, type OperatorNetworkPolicy, type PageNetwork } from "../web/network-policy.js";
import { startPolicyProxy } from "../web/policy-proxy.js";
import { projectFontsScript } from "../web/fonts/project-fonts-script.js";
import { defaultFontconfig, GENERIC_FAMILIES } from "../web/fonts/default-fonts.js";
import { projectFontRules } from "../web/local/fontsource.js";
import { createLocalWeb } from "../web/local/local-resolver.js";
import type { PackageLookup } from "../web/local/npm-package.js";
import { frameImageFormat } from "../common/frame-image.js";
import { optionNamer, type OptionNaming } from "../common/option-naming.js";
import { throwIfAborted } from "../common/render-error.js";
import { warnOnOpaqueBackground, warnOnRootSize, warnOnUnavailableGraphics } from "./composition/composition-warnings.js";
import { refusal } from "./composition/lint-before-render.js";
import { preflight } from "./composition/preflight.js";
import { readComposition, type SourceComposition } from "./composition/read-composition.js";
import { checkFrames, checkSize, resolveLimits, type RenderLimits } from "./composition/render-limits.js";
import { frameSizeAt } from "./composition/frame-size.js";
import type { PixelSize } from "../common/scaled-size.js";
import { cacheRoot } from "../common/cache.js";
import { prepareMedia, type PreparedMedia } from "./prepare-media.js";
import { removeOrphanedTemp } from "../output/owned-temp.js";
import { serveProject } from "../web/project-server.js";
import { warnOfFontFallbacks } from "./warn-font-fallbacks.js";
import { openFirstPage, openPages, warnOnce, type PageSetup } from "./open-pages.js";
import type { LoadContext } from "./load-context.js";

/** What loading a composition needs: the part of a render request before the plan. */
export interface LoadRequest extends OptionNaming {
  /** The composition's HTML file. */
  composition: string;
  /** Validated options (validateRenderOptions in @compose/core). */
  options: RenderOptions;
  /** Render one frame as a PNG image (it keeps what alpha the page leaves). */
  still?: boolean;
  /** How frames are taken from the browser; BeginFrame unless the browser cannot do it. */
  captureMode?: CaptureMode;
  /** How long a page may take to load and become ready, and each frame to settle. */
  readyTimeoutMs?: number;
  /** Caps on frames and size; DEFAULT_LIMITS where absent. */
  limits?: Partial<RenderLimits>;
  /** Values for the composition's sub-composition hosts by data-composition-id, in place of their data-variable-values. */
  instances?: Record<string, Record<string, unknown>>;
  /** The operator's network policy, which the options' `network` may only narrow; everything when absent. */
  network?: OperatorNetworkPolicy;
}

export type CompositionFacts = CompositionInfo & { duration: number; durationSource: NonNullable<CompositionInfo["durationSource"]> };

/**
 * A composition read, checked and loaded in one page, its media probed and prepared, its duration
 * known: everything the plan needs. The duration's last rule (the longest timeline) and media that
 * scripts add exist only in a running page, so one page is loaded before the plan; it becomes the
 * first worker's, and `openMorePages` opens the others the plan asks for.
 */
export interface LoadedComposition {
  source: SourceComposition;
  /** The size of the output's frames: the composition's at the render's scale. */
  frameSize: PixelSize;
  info: CompositionFacts;
  media: PreparedMedia;
  mode: CaptureMode;
  firstPage: CompositionPage;
  /** Opens `count` more pages like the first, media prepared, in the same capture mode. */
  openMorePages(count: number): Promise<CompositionPage[]>;
}

/** The render's network policy, and the proxy that holds WebSockets and remote media to it too, closed with the render. */
async function pageNetwork(policy: NetworkPolicy, baseUrl: string, packages: PackageLookup, optionName: (field: string) => string, context: LoadContext): Promise<PageNetwork> {
  const ruling = createRuling(policy, new URL(baseUrl).origin);
  const onRefused = refusalReporter(context.emit, optionName);
  const local = createLocalWeb(packages);
  if (policy.mode === "all") return { policy, ruling, onRefused, local };
  const proxy = await startPolicyProxy(ruling, onRefused);
  context.cleanups.push(() => proxy.close());
  return { policy, ruling, onRefused, local, proxy: proxy.url };
}

/** The fonts of every page: the default set through fontconfig and the generic families, and the project's font packages. */
async function pageFonts(packages: PackageLookup): Promise<PageSetup["fonts"]> {
  const [fontconfigFile, rules] = await Promise.all([defaultFontconfig(), projectFontRules(packages)]);
  return { fontconfigFile, page: { generic: GENERIC_FAMILIES, script: rules.length > 0 ? projectFontsScript(rules) : undefined } };
}

/** The load stage: everything before the plan. */
export async function loadComposition(request: LoadRequest, context: LoadContext): Promise<LoadedComposition> {
  const { options } = request;
  const { emit, signal } = context;
  const optionName = optionNamer(request);
  throwIfAborted(signal);
  await removeOrphanedTemp();
  const source = await readComposition(request.composition, signal);
  const limits = resolveLimits(request.limits);
  const frameSize = frameSizeAt(source, options.scale, optionName);
  checkSize(source.id, source, frameSize, limits, `${optionName("scale")} ${options.scale}`);
  const declared = source.metadata.duration;
  if (declared !== undefined) checkFrames(source.id, declared, options.fps, limits);
  await preflight(source, frameSize, options, optionName, emit, signal);

  const projectRoot = dirname(source.file);
  const server = await serveProject(projectRoot, join(cacheRoot(), "frames"));
  context.cleanups.push(() => server.close());

  // A render for others (an operator's policy) sees the packages of the project alone, not those of the folders above it.
  const packages: PackageLookup = { root: projectRoot, parents: request.network === undefined };
  const network = await pageNetwork(effectivePolicy(request.network, options), server.baseUrl, packages, optionName, context);
  const setup: PageSetup = {
    composition: source,
    options,
    baseUrl: server.baseUrl,
    network,
    pool: context.pool,
    readyTimeoutMs: request.readyTimeoutMs,
    instances: request.instances,
    warn: warnOnce(emit),
    fonts: await pageFonts(packages),
  };
  const { page: firstPage, mode } = await openFirstPage(setup, request.captureMode);
  const media = await prepareMedia([firstPage], {
    network,
    projectRoot,
    baseUrl: server.baseUrl,
    fps: options.fps,
    image: frameImageFormat(options.format),
    signal,
  });
  const { info } = firstPage;
  await warnOfFontFallbacks(firstPage, projectRoot, server.baseUrl, setup.warn);
  warnOnRootSize(source, info, emit);
  warnOnUnavailableGraphics(info, emit);
  // What lint finds in the source, found again in the live DOM that scripts changed.
  const [timingError] = info.timingErrors;
  if (timingError) throw refusal(`timing-${timingError.code}`, timingError.message);
  if (info.duration === undefined || info.durationSource === undefined) throw refusal("no-duration", noDurationMessage(source.id));
  checkFrames(source.id, info.duration, options.fps, limits);
  // A still is one PNG: it keeps what alpha the page leaves, and nobody asked it to be transparent.
  if (!request.still && FORMAT_TABLE[options.format].alpha) warnOnOpaqueBackground(options.format, source, info, emit);

  return {
    source,
    frameSize,
    info: { ...info, duration: info.duration, durationSource: info.durationSource },
    media,
    mode,
    firstPage,
    async openMorePages(count) {
      if (count === 0) return [];
      const pages = await openPages(setup, count, mode);
      if (media.plans.length > 0) await Promise.all(pages.map((page) => page.prepareMedia(media.plans)));
      return pages;
    },
  };
}
