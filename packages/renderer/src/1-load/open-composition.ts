import { dirname } from "node:path";
import { FONT_PACKAGE_CODE } from "@compose/core";
import type { CompositionPage } from "../page/composition-page.js";
import type { CaptureMode } from "../page/frame-capturer.js";
import { createRuling, effectivePolicy, refusalReporter, type NetworkPolicy, type PageNetwork } from "../web/network-policy.js";
import { startPolicyProxy } from "../web/policy-proxy.js";
import { projectFontsScript } from "../web/fonts/project-fonts-script.js";
import { defaultFontconfig, GENERIC_FAMILIES } from "../web/fonts/default-fonts.js";
import { projectFontPackages } from "../web/local/fontsource.js";
import { describePackageProblem } from "../web/local/package-problem.js";
import { createLocalWeb } from "../web/local/local-resolver.js";
import type { PackageLookup } from "../web/local/npm-package.js";
import { frameImageFormat } from "../common/frame-image.js";
import { optionNamer } from "../common/option-naming.js";
import { warnIfRebuilt } from "../common/cache.js";
import { FrameFiles } from "../media/frame-files.js";
import { serveProject } from "../web/project-server.js";
import type { SourceComposition } from "./composition/read-composition.js";
import { prepareMedia, type PreparedMedia } from "./prepare-media.js";
import { openFirstPage, warnOnce, type PageSetup } from "./open-pages.js";
import type { LoadContext } from "./load-context.js";
import type { LoadRequest } from "./load-composition.js";
import type { RenderLimits } from "./composition/render-limits.js";
import type { FontSources } from "./warn-font-fallbacks.js";

/** A composition opened in one page as render opens it, and what more pages of it are opened with. */
export interface OpenedComposition {
  setup: PageSetup;
  firstPage: CompositionPage;
  mode: CaptureMode;
  media: PreparedMedia;
  /** The project, its server's base URL (which the pages load the project from) and its font packages. */
  fonts: FontSources;
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
  const local = createLocalWeb(packages, { onFontFileProblem: (problem) => warn(FONT_PACKAGE_CODE, describePackageProblem(problem)) });
  if (policy.mode === "all") return { policy, ruling, onRefused, local };
  const proxy = await startPolicyProxy(ruling, onRefused);
  context.cleanups.push(() => proxy.close());
  return { policy, ruling, onRefused, local, proxy: proxy.url };
}

/**
 * The fonts of every page: the default set through fontconfig and the generic families, and the
 * project's font packages, each file that keeps one from being used told; and the packages found.
 */
async function pageFonts(
  packages: PackageLookup,
  warn: (code: string, message: string) => void,
): Promise<{ fonts: PageSetup["fonts"]; installed: FontSources["installed"] }> {
  const [fontconfig, { rules, installed, problems }] = await Promise.all([defaultFontconfig(), projectFontPackages(packages, { checkFontFiles: false })]);
  warnIfRebuilt(fontconfig.entry, "the default fonts", warn);
  for (const problem of problems) warn(FONT_PACKAGE_CODE, describePackageProblem(problem));
  const fonts = { fontconfigFile: fontconfig.file, page: { generic: GENERIC_FAMILIES, script: rules.length > 0 ? projectFontsScript(rules) : undefined } };
  return { fonts, installed };
}

/**
 * Serves the project, sets up the network policy and the fonts, opens one page of the composition
 * until it is ready, and prepares its media: probes the sources and hands the page their natural
 * lengths, and with `videoFrames` extracts each video's frames for the page to show (a page that
 * is only described, never captured, does without them).
 */
export async function openComposition(
  source: SourceComposition,
  request: LoadRequest,
  context: LoadContext,
  settings: { videoFrames: boolean; limits: RenderLimits },
): Promise<OpenedComposition> {
  const { options } = request;
  const projectRoot = dirname(source.file);
  const warn = warnOnce(context.emit);
  const frames = new FrameFiles(warn);
  const server = await serveProject(projectRoot, frames);
  context.cleanups.push(() => server.close());

  // A render for others (an operator's policy) sees the packages of the project alone, not those of the folders above it.
  const packages: PackageLookup = { root: projectRoot, parents: request.network === undefined };
  const network = await pageNetwork(effectivePolicy(request.network, options), server.baseUrl, packages, optionNamer(request), warn, context);
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
    maxMemory: settings.limits.maxMemory,
  };
  const { page: firstPage, mode } = await openFirstPage(setup, request.captureMode);
  const prepared = await prepareMedia([firstPage], {
    network,
    projectRoot,
    baseUrl: server.baseUrl,
    fps: options.fps,
    image: frameImageFormat(options.format),
    videoFrames: settings.videoFrames,
    signal: context.signal,
    frames,
    keepOpen: (close) => context.cleanups.push(close),
  });
  return { setup, firstPage, mode, media: prepared, fonts: { projectRoot, baseUrl: server.baseUrl, installed } };
}
