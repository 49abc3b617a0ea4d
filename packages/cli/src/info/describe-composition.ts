import { dirname, relative } from "node:path";
import { resolveVariableValues, validateVariableValues, type CompositionInfoReport, type CompositionMetadata, type RenderOptions } from "@compose/core";
import type { CaptureMode, PageFacts } from "@compose/renderer";
import { createSubCompositionResolver } from "@compose/renderer/project";
import { lintEntry } from "../project/lint-entry.js";
import type { CompositionEntry } from "../project/resolve-composition-entry.js";
import { optionFlag } from "../render/render-flags.js";
import { countSeverities } from "../terminal/lint-report.js";
import { fontFacts } from "./font-facts.js";
import { networkFacts, type RemoteReference } from "./network-facts.js";
import { sourceFacts } from "./source-facts.js";

export interface DescribeRequest {
  entry: CompositionEntry;
  /** The options a render of it would have: its variables and network policy change the facts. */
  options: RenderOptions;
  /** Load the page even when the source settles the duration and the media, for what only a page knows. */
  loadPage: boolean;
  settings: { captureMode?: CaptureMode; readyTimeoutMs?: number };
}

export interface Description {
  report: CompositionInfoReport;
  /** Why the page that was needed could not be loaded: the facts it would give are missing. */
  pageError: string | undefined;
}

/** The page, loaded as render loads it; its warnings are collected, not printed. */
async function runningPageFacts(request: DescribeRequest, warnings: CompositionInfoReport["page"]["warnings"]): Promise<PageFacts | { error: string }> {
  const { loadPageFacts, RenderError } = await import("@compose/renderer");
  try {
    return await loadPageFacts(
      // A missing asset is lint's finding; the page's facts do not depend on it.
      { composition: request.entry.file, options: { ...request.options, allowMissingAssets: true }, ...request.settings, optionName: optionFlag },
      { onEvent: (event) => void (event.type === "warning" && warnings.push({ code: event.code, message: event.message })) },
    );
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    return { error: error.message };
  }
}

/** The timed video and audio as the source writes them. */
function sourceMedia(metadata: CompositionMetadata): CompositionInfoReport["media"] {
  return metadata.media.flatMap((media) =>
    media.kind === "img"
      ? []
      : [
          {
            kind: media.kind,
            id: media.id ?? null,
            src: media.src ?? null,
            start: media.start ?? null,
            duration: media.duration ?? null,
            audio: media.hasAudio ?? null,
          },
        ],
  );
}

function pageMedia(page: PageFacts): CompositionInfoReport["media"] {
  return page.media.map((media) => ({
    kind: media.kind,
    id: media.id ?? null,
    src: media.src || null,
    start: media.start ?? null,
    duration: media.duration ?? null,
    audio: media.audible,
  }));
}

/**
 * What a composition is, without rendering it. The source is read as lint reads it (lint's counts
 * come from the same run); a page is loaded, as render's load stage loads it, only when the source
 * does not settle the duration (a GSAP timeline, a media file's length) or a media element's src
 * (a script sets it), or when asked: then the duration, the media and the fonts drawn are the
 * running page's.
 */
export async function describeComposition(request: DescribeRequest): Promise<Description> {
  const { entry, options } = request;
  const remote: RemoteReference[] = [];
  const mode = options.network ?? "all";
  const linted = await lintEntry(entry, mode, (file, reference) => remote.push({ file, reference }));
  const entryFile = relative(process.cwd(), entry.file);
  const source = sourceFacts({ entryFile, texts: linted.texts, resolve: createSubCompositionResolver(dirname(entryFile)) });
  const { metadata } = source;

  const isComposition = metadata.id !== undefined && metadata.width !== undefined && metadata.height !== undefined;
  const wanted = !isComposition ? undefined : request.loadPage ? "asked for with --page" : source.pageNeeded;
  const warnings: CompositionInfoReport["page"]["warnings"] = [];
  const loaded = wanted === undefined ? undefined : await runningPageFacts(request, warnings);
  const page = loaded === undefined || "error" in loaded ? undefined : loaded;
  const pageError = loaded !== undefined && "error" in loaded ? loaded.error : undefined;
  const reason =
    pageError !== undefined
      ? `loading it failed: ${pageError}`
      : (wanted ??
        (!isComposition
          ? "the file holds no composition element (compose lint says why)"
          : `the source gives the duration (${metadata.durationSource === "data-duration" ? "data-duration" : "the end of its last timed element"}) and every media element's src`));
  // A duration the source does not settle is only the page's to give.
  const duration = page ? page.duration : source.pageNeeded === undefined ? metadata.duration : undefined;
  const durationSource = page ? page.durationSource : source.pageNeeded === undefined ? metadata.durationSource : undefined;

  const values = resolveVariableValues(metadata.variables, options.variables);
  const report: CompositionInfoReport = {
    kind: "composition",
    file: entryFile,
    id: metadata.id ?? null,
    width: metadata.width ?? null,
    height: metadata.height ?? null,
    duration: duration ?? null,
    durationSource: durationSource ?? null,
    page: { loaded: page !== undefined, reason, warnings },
    variables: metadata.variables.map((variable) => ({ ...variable, value: values[variable.id] })),
    variableIssues: validateVariableValues(metadata.variables, options.variables ?? {}).map(({ code, variable, message }) => ({ code, variable, message })),
    subCompositions: source.subCompositions,
    media: page ? pageMedia(page) : sourceMedia(metadata),
    fonts: fontFacts(linted.texts.values(), linted.fonts.resolve, page?.fontFallbacks),
    network: await networkFacts(remote, entryFile, { mode, allowHosts: options.allowHosts ?? [] }),
    lint: countSeverities(linted.findings),
  };
  return { report, pageError };
}
