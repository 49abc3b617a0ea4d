import { FORMAT_TABLE, noDurationMessage, type RenderOptions } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import type { CompositionPage } from "../page/composition-page.js";
import type { CaptureMode } from "../page/frame-capturer.js";
import type { OperatorNetworkPolicy } from "../web/network-policy.js";
import { optionNamer, type OptionNaming } from "../common/option-naming.js";
import { throwIfAborted } from "../common/render-error.js";
import { warnOnOpaqueBackground, warnOnRootSize, warnOnUnavailableGraphics } from "./composition/composition-warnings.js";
import { refusal } from "./composition/lint-before-render.js";
import { preflight } from "./composition/preflight.js";
import { readComposition, type SourceComposition } from "./composition/read-composition.js";
import { checkFrames, checkSize, resolveLimits, type RenderLimits } from "./composition/render-limits.js";
import { frameSizeAt } from "./composition/frame-size.js";
import type { PixelSize } from "../common/scaled-size.js";
import type { PreparedMedia } from "./prepare-media.js";
import { removeOrphanedTemp } from "../output/owned-temp.js";
import { warnOfFontFallbacks } from "./warn-font-fallbacks.js";
import { openComposition } from "./open-composition.js";
import { openPages } from "./open-pages.js";
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
  /** The size of the output's frames: the composition's at the render's scale. */
  frameSize: PixelSize;
  info: CompositionFacts;
  media: PreparedMedia;
  mode: CaptureMode;
  firstPage: CompositionPage;
  /** Opens `count` more pages like the first, media prepared, in the same capture mode. */
  openMorePages(count: number): Promise<CompositionPage[]>;
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

  const { setup, firstPage, mode, media, fonts } = await openComposition(source, request, context, { videoFrames: true, limits });
  const { info } = firstPage;
  await warnOfFontFallbacks(await firstPage.fontFallbacks(), fonts, setup.warn);
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
