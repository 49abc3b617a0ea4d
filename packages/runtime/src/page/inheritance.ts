import { FRAME_SCRIPT_ATTRIBUTE } from "@compose/core";
import { applyInheritedStyle, type InheritedStyle } from "./frame-styles.js";
import { CSS_URL, readableRules } from "./style-rules.js";

/**
 * What a sub-composition instance gets from its host, as an inline piece of the host would: the
 * libraries the host page loaded with <script src> (run as globals before the instance's own
 * scripts), the host element's inherited CSS properties and the host page's web fonts. Nothing
 * else crosses: ids, CSS rules, scripts, variables and timelines stay the instance's own.
 */
export interface Inheritance {
  libraries: Library[];
  style: InheritedStyle;
}

interface Library {
  url: string;
  text: string;
}

/** The property of the instance's <iframe> element that carries its inheritance to the child frame. */
const INHERITANCE_KEY = "__composeInheritance";

/** The CSS properties a child element inherits by default that shape text. */
const INHERITED_PROPERTIES = [
  "color",
  "direction",
  "font-family",
  "font-feature-settings",
  "font-kerning",
  "font-size",
  "font-stretch",
  "font-style",
  "font-variant",
  "font-weight",
  "letter-spacing",
  "line-height",
  "text-align",
  "text-indent",
  "text-shadow",
  "text-transform",
  "white-space",
  "word-spacing",
];

/** What this frame received from its own host; a nested instance inherits it too. */
let received: Inheritance | undefined;

function unique<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && Boolean(seen.add(key(item))));
}

/** This frame's libraries, fetched once however many instances it mounts. */
let ownLibrariesLoaded: Promise<Library[]> | undefined;

function ownLibraries(): Promise<Library[]> {
  ownLibrariesLoaded ??= loadOwnLibraries();
  return ownLibrariesLoaded;
}

async function loadOwnLibraries(): Promise<Library[]> {
  const scripts = Array.from(document.querySelectorAll<HTMLScriptElement>(`script[src]:not([${FRAME_SCRIPT_ATTRIBUTE}])`)).filter(
    (script) => script.type !== "module",
  );
  // The page loaded them already; force-cache takes the browser's copy when it kept one.
  const libraries = await Promise.all(
    scripts.map(async (script): Promise<Library | undefined> => {
      const response = await fetch(script.src, { cache: "force-cache" }).catch(() => undefined);
      return response?.ok ? { url: script.src, text: await response.text() } : undefined;
    }),
  );
  return libraries.filter((library): library is Library => library !== undefined);
}

/** @font-face rules of this document's readable style sheets, their url()s resolved where the sheet is. */
function ownFontFaces(): string[] {
  return readableRules()
    .filter(({ rule }) => rule instanceof CSSFontFaceRule)
    .map(({ rule, base }) => rule.cssText.replace(CSS_URL, (_, _quote: string, url: string) => `url("${new URL(url, base).href}")`));
}

/** What an instance mounted in `host` inherits from this frame. */
export async function inheritanceFor(host: Element): Promise<Inheritance> {
  const computed = getComputedStyle(host);
  const properties = Object.fromEntries(INHERITED_PROPERTIES.map((name) => [name, computed.getPropertyValue(name)]).filter(([, value]) => value !== ""));
  return {
    libraries: unique([...(received?.libraries ?? []), ...(await ownLibraries())], (library) => library.url),
    style: { properties, fontFaces: unique([...(received?.style.fontFaces ?? []), ...ownFontFaces()], (face) => face) },
  };
}

export function offerInheritance(frame: HTMLIFrameElement, inheritance: Inheritance): void {
  Object.defineProperty(frame, INHERITANCE_KEY, { value: inheritance });
}

function runLibrary(library: Library): void {
  try {
    // Indirect eval runs in this frame's global scope, as a classic <script> would.
    (0, eval)(`${library.text}\n//# sourceURL=${library.url}`);
  } catch {
    // A host script that is not a library (it drives the host's own elements) may throw here;
    // it was written for the host, which runs it and reports its errors.
  }
}

/**
 * In an instance frame, takes what the host offered: the style at once, the libraries as soon as
 * <html> exists (before any script of the page runs, since the parser checks for mutation
 * observers before each script).
 */
export function takeInheritance(): void {
  const offered = (window.frameElement as (Element & { [INHERITANCE_KEY]?: Inheritance }) | null)?.[INHERITANCE_KEY];
  if (!offered) return;
  received = offered;
  applyInheritedStyle(offered.style);
  const run = () => offered.libraries.forEach(runLibrary);
  if (document.documentElement) {
    run();
    return;
  }
  const observer = new MutationObserver(() => {
    if (!document.documentElement) return;
    observer.disconnect();
    run();
  });
  observer.observe(document, { childList: true });
}
