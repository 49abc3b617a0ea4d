import type { DurationSource } from "@compose/core";
import { readComposition } from "../1-load/composition/read-composition.js";
import { resolveLimits } from "../1-load/composition/render-limits.js";
import type { LoadRequest } from "../1-load/load-composition.js";
import { openComposition } from "../1-load/open-composition.js";
import { warnOfFontFallbacks } from "../1-load/warn-font-fallbacks.js";
import { withRenderContext, type RenderHooks } from "./render-context.js";

/** A timed video or audio of the running page or one of its instances. */
export interface PageMedia {
  kind: "video" | "audio";
  id: string | undefined;
  /** A project path (`media/intro.mp4`), or the URL of a source elsewhere. */
  src: string;
  /** Seconds in the composition's time; undefined when its start cannot be resolved. */
  start: number | undefined;
  /** Seconds it plays: its data-duration, else its source's length as probed. */
  duration: number | undefined;
  audible: boolean;
}

/** What only a running page knows of a composition. */
export interface PageFacts {
  duration: number | undefined;
  durationSource: DurationSource | undefined;
  media: PageMedia[];
  /** Families its text asked for that no font of their name drew, with the font that drew it instead. */
  fontFallbacks: Array<{ family: string; drawnWith: string | undefined }>;
}

/** A URL of the project server as the project's path; other URLs as they are. */
function projectPath(url: string, baseUrl: string): string {
  return url.startsWith(baseUrl) ? decodeURIComponent(url.slice(baseUrl.length).split(/[?#]/)[0]!) : url;
}

/**
 * Loads the composition in one page as render's load stage does (the same project server,
 * network policy, fonts, variables and media probes, but none of the refusals of a render and no
 * video frames extracted) and tells what the running page knows: the duration by the whole rule
 * (the longest timeline included), the media after its scripts ran, with their sources' lengths,
 * and the fonts its text fell back from. The page's warnings go to `hooks.onEvent` as a render's
 * do; the browser is closed before it resolves.
 */
export function loadPageFacts(request: LoadRequest, hooks: RenderHooks = {}): Promise<PageFacts> {
  return withRenderContext(hooks, async (context) => {
    const source = await readComposition(request.composition, context.signal);
    const {
      firstPage: page,
      media,
      setup,
      fonts,
    } = await openComposition(source, request, context, { videoFrames: false, limits: resolveLimits(request.limits) });
    const { baseUrl } = fonts;
    const fallbacks = await page.fontFallbacks();
    await warnOfFontFallbacks(fallbacks, fonts, setup.warn);
    const natural = new Map(media.plans.map((plan) => [plan.key, plan.naturalDuration]));
    const described = await page.describeMedia();
    return {
      duration: page.info.duration,
      durationSource: page.info.durationSource,
      media: described.map((element) => ({
        kind: element.kind,
        id: element.id,
        src: projectPath(element.src, baseUrl),
        start: element.start,
        duration: element.duration ?? natural.get(element.key),
        audible: element.audible,
      })),
      fontFallbacks: fallbacks.map((fallback) => ({ family: fallback.family, drawnWith: fallback.drawnWith[0] })),
    };
  });
}
