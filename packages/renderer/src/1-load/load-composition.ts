import { dirname } from "node:path";
import { FONT_PACKAGE_CODE, FORMAT_TABLE, noDurationMessage, type RenderOptions } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import type { CompositionPage } from "../page/composition-page.js";
import type { CaptureMode } from "../page/frame-capturer.js";
import { createRuling, effectivePolicy, refusalReporter, type NetworkPolicy, type OperatorNetworkPolicy, type PageNetwork } from "../web/network-policy.js";
import { startPolicyProxy } from "../web/policy-proxy.js";
import { projectFontsScript } from "../web/fonts/project-fonts-script.js";
import { defaultFontconfig, GENERIC_FAMILIES } from "../web/fonts/default-fonts.js";
import { projectFontPackages, type InstalledFontPackage } from "../web/local/fontsource.js";
import { describePackageProblem } from "../web/local/package-problem.js";
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
import { warnIfRebuilt } from "../common/cache.js";
import { FrameFiles } from "../media/frame-files.js";
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
  /** Caps on frames, size and memory; DEFAULT_LIMITS where absent. */
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
  info: CompositionFacts;
  media: PreparedMedia;
  mode: CaptureMode;
  firstPage: CompositionPage;
  /** Opens `count` more pages like the first, media prepared, in the same capture mode. */
  openMorePages(count: number): Promise<CompositionPage[]>;
}

/** The render's network policy, and the proxy that holds WebSockets and remote media to it too, closed with the render. */
async function pageNetwork(
  policy: NetworkPolicy,
  baseUrl: string,
  packages: PackageLookup,
  optionName: (field: string) => string,
  warn: (code: string, message: string) => void,
  context: LoadContext,
): Promise<PageNetwork> {
  const ruling = createRuling(policy, new URL(baseUrl).origin);
  const onRefused = refusalReporter(context.emit, optionName);
  const local = createLocalWeb(packages, (problem) => warn(FONT_PACKAGE_CODE, describePackageProblem(problem)));
  if (policy.mode === "all") return { policy, ruling, onRefused, local };
  const proxy = await startPolicyProxy(ruling, onRefused);
  context.cleanups.push(() => proxy.close());
  return { policy, ruling, onRefused, local, proxy: proxy.url };
}

/**
 * The fonts of every page: the default set through fontconfig and the generic families, and the
 * project's font packages, each file that keeps one from being used told; and the packages found.
 */
async function pageFonts(packages: PackageLookup, warn: (code: string, message: string) => void): Promise<{ fonts: PageSetup["fonts"]; installed: InstalledFontPackage[] }> {
  const [fontconfig, { rules, installed, problems }] = await Promise.all([defaultFontconfig(), projectFontPackages(packages, { checkFontFiles: false })]);
  warnIfRebuilt(fontconfig.entry, "the default fonts", warn);
  for (const problem of problems) warn(FONT_PACKAGE_CODE, describePackageProblem(problem));
  const fonts = { fontconfigFile: fontconfig.file, page: { generic: GENERIC_FAMILIES, script: rules.length > 0 ? projectFontsScript(rules) : undefined } };
  return { fonts, installed };
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
  checkSize(source.id, source.width, source.height, limits);
  const declared = source.metadata.duration;
  if (declared !== undefined) checkFrames(source.id, declared, options.fps, limits);
  await preflight(source, options, optionName, emit, signal);

  const projectRoot = dirname(source.file);
  const warn = warnOnce(emit);
  const frames = new FrameFiles(warn);
  const server = await serveProject(projectRoot, frames);
  context.cleanups.push(() => server.close());

  // A render for others (an operator's policy) sees the packages of the project alone, not those of the folders above it.
  const packages: PackageLookup = { root: projectRoot, parents: request.network === undefined };
  const network = await pageNetwork(effectivePolicy(request.network, options), server.baseUrl, packages, optionName, warn, context);
  const { fonts, installed } = await pageFonts(packages, warn);
  const setup: PageSetup = {
    composition: source,
    options,
    baseUrl: server.baseUrl,
    network,
    pool: context.pool,
    readyTimeoutMs: request.readyTimeoutMs,
    instances: request.instances,
    warn,
    fonts,
    maxMemory: limits.maxMemory,
  };
  const { page: firstPage, mode } = await openFirstPage(setup, request.captureMode);
  const media = await prepareMedia([firstPage], {
    network,
    projectRoot,
    baseUrl: server.baseUrl,
    fps: options.fps,
    image: frameImageFormat(options.format),
    signal,
    frames,
  });
  const { info } = firstPage;
  await warnOfFontFallbacks(firstPage, { projectRoot, baseUrl: server.baseUrl, installed }, warn);
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
