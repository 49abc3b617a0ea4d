import type { LoadFailure } from "../api.js";
import { documentUrl } from "./document-url.js";
import { projectPath } from "./page-errors.js";
import { CSS_URL, readableRules } from "./style-rules.js";

/** The attribute that names an element's resource, by tag. */
const SOURCE_ATTRIBUTE: Record<string, string> = { IMG: "src", SCRIPT: "src", LINK: "href", VIDEO: "src", AUDIO: "src", SOURCE: "src", IFRAME: "src" };
const TYPE: Record<string, LoadFailure["type"]> = {
  IMG: "image",
  SCRIPT: "script",
  LINK: "stylesheet",
  VIDEO: "media",
  AUDIO: "media",
  SOURCE: "media",
  IFRAME: "document",
};

/** The event this frame and each same-origin frame above it hear when a failure is collected, however late. */
export const LOAD_FAILURE_EVENT = "compose:loadfailure";

function announce(): void {
  for (let current: Window = window; ; current = current.parent) {
    try {
      current.dispatchEvent(new Event(LOAD_FAILURE_EVENT));
    } catch {
      return; // another origin's frame
    }
    if (current === current.parent) return;
  }
}

/** The `url(...)` of a style sheet rule of this document that names `url`, and the sheet's file; undefined when none does. */
function styleReference(url: string): { written: string; document: string; font: boolean } | undefined {
  for (const { rule, base, href } of readableRules()) {
    for (const [, , written] of rule.cssText.matchAll(CSS_URL)) {
      if (new URL(written!, base).href === url)
        return { written: written!, document: projectPath(href ?? documentUrl()), font: rule instanceof CSSFontFaceRule };
    }
  }
  return undefined;
}

/**
 * An image a style sheet's url() asked for (a background) that the browser's resource timing
 * shows answered with an error status; a font's url() is named by its family instead (see
 * loadingerror).
 */
function watchStyleImages(add: (failure: LoadFailure) => void): void {
  if (typeof PerformanceObserver === "undefined") return;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceResourceTiming & { responseStatus?: number }>) {
      if (entry.initiatorType !== "css" || (entry.responseStatus ?? 0) < 400) continue;
      const reference = styleReference(entry.name);
      if (reference?.font) continue;
      add({
        type: "image",
        url: projectPath(entry.name),
        written: reference?.written ?? projectPath(entry.name),
        document: reference?.document ?? projectPath(documentUrl()),
      });
    }
  });
  observer.observe({ type: "resource", buffered: true });
}

/**
 * A fetch() answered with an error status or no answer. Watched at the call: resource timing
 * would show it only once the page read the body, which a page that checks response.ok does not.
 */
function watchFetch(add: (failure: LoadFailure) => void): void {
  const pageFetch = window.fetch;
  window.fetch = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const written = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const report = () => {
      const url = URL.canParse(written, document.baseURI) ? projectPath(new URL(written, document.baseURI).href) : written;
      add({ type: "fetch", url, written, document: projectPath(documentUrl()) });
    };
    const answer = pageFetch.call(this, input, init);
    answer.then(
      (response) => response.status >= 400 && report(),
      (error: unknown) => (error as { name?: string } | null)?.name !== "AbortError" && report(),
    );
    return answer;
  };
}

/**
 * Collects the resources of this frame that failed to load, from injection on: elements that
 * fire `error` (images, scripts, style sheets, media), web fonts that could not load, fetches
 * and style sheet images. Render sees the same failures from the browser's network log; a page
 * has only these.
 */
export function collectLoadFailures(): readonly LoadFailure[] {
  const failures: LoadFailure[] = [];
  const seen = new Set<string>();
  const add = (failure: LoadFailure) => {
    if (seen.has(failure.url)) return;
    seen.add(failure.url);
    failures.push(failure);
    announce();
  };
  watchStyleImages(add);
  watchFetch(add);
  window.addEventListener(
    "error",
    (event) => {
      const target = event.target;
      if (event instanceof ErrorEvent || !(target instanceof Element)) return;
      const attribute = SOURCE_ATTRIBUTE[target.tagName];
      const written = attribute === undefined ? null : target.getAttribute(attribute);
      if (written === null || written === "" || written.startsWith("data:")) return;
      add({
        type: TYPE[target.tagName] ?? "other",
        url: projectPath(new URL(written, document.baseURI).href),
        written,
        document: projectPath(documentUrl()),
      });
    },
    true,
  );
  document.fonts?.addEventListener("loadingerror", (event) => {
    for (const face of (event as FontFaceSetLoadEvent).fontfaces) {
      add({ type: "font", url: `font-family ${face.family}`, written: face.family.replace(/^["']|["']$/g, ""), document: projectPath(documentUrl()) });
    }
  });
  return failures;
}

/** The failures of every same-origin frame this one contains, as childFrameErrors collects errors. */
export function childFrameLoadFailures(): LoadFailure[] {
  const found: LoadFailure[] = [];
  for (let index = 0; index < window.frames.length; index++) {
    try {
      const child = window.frames[index] as (Window & { __compose?: { loadFailures?: readonly LoadFailure[] } }) | undefined;
      for (const failure of child?.__compose?.loadFailures ?? []) found.push({ ...failure });
    } catch {
      // Another origin's frame cannot be read.
    }
  }
  return found;
}
