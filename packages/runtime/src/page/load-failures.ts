import type { LoadFailure } from "../api.js";
import { projectPath } from "./page-errors.js";

/** The attribute that names an element's resource, by tag. */
const SOURCE_ATTRIBUTE: Record<string, string> = { IMG: "src", SCRIPT: "src", LINK: "href", VIDEO: "src", AUDIO: "src", SOURCE: "src", IFRAME: "src" };
const TYPE: Record<string, LoadFailure["type"]> = { IMG: "image", SCRIPT: "script", LINK: "stylesheet", VIDEO: "media", AUDIO: "media", SOURCE: "media", IFRAME: "document" };

/**
 * Collects the resources of this frame that failed to load, from injection on: elements that
 * fire `error` (images, scripts, style sheets, media) and web fonts that could not load. Render
 * sees the same failures from the browser's network log; a page has only these events.
 */
export function collectLoadFailures(): readonly LoadFailure[] {
  const failures: LoadFailure[] = [];
  const seen = new Set<string>();
  const add = (failure: LoadFailure) => {
    if (seen.has(failure.url)) return;
    seen.add(failure.url);
    failures.push(failure);
  };
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
        document: projectPath(location.href),
      });
    },
    true,
  );
  document.fonts?.addEventListener("loadingerror", (event) => {
    for (const face of (event as FontFaceSetLoadEvent).fontfaces) {
      add({ type: "font", url: `font-family ${face.family}`, written: face.family.replace(/^["']|["']$/g, ""), document: projectPath(location.href) });
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
