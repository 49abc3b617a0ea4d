// A composition from any web server: its HTML fetched and written into the frame with the runtime
// as its first script, as the preview's server serves it, at its own URL as its base. The runtime
// writes the documents of its sub-composition instances in the same way.
import { writtenDocument } from "@compose/core";
import type { BootConfig, PageSource } from "./composition-player.js";
import { RUNTIME_BUNDLE } from "./runtime-bundle.js";

/** Size when the file names none: the runtime's ready() says what is wrong with it. */
const FALLBACK_SIZE = { width: 640, height: 360 };

let runtimeUrl: string | undefined;

/** The runtime's bundle at one blob URL for the page: every frame's first script loads it from there. */
function runtimeBundleUrl(): string {
  runtimeUrl ??= URL.createObjectURL(new Blob([RUNTIME_BUNDLE], { type: "text/javascript" }));
  return runtimeUrl;
}

function positive(text: string | null): number | undefined {
  const value = Number(text);
  return text !== null && text.trim() !== "" && value > 0 && Number.isFinite(value) ? value : undefined;
}

/** The composition element's data-width and data-height, read from the file before its page loads: the frame is that size from the start, as render's page is. */
function compositionSize(html: string): { width: number; height: number } {
  const document = new DOMParser().parseFromString(html, "text/html");
  const roots = [document, ...Array.from(document.querySelectorAll("template"), (template) => template.content)];
  for (const root of roots) {
    const element = root.querySelector("[data-composition-id]:not([data-composition-src])");
    const width = positive(element?.getAttribute("data-width") ?? null);
    const height = positive(element?.getAttribute("data-height") ?? null);
    if (element) return width !== undefined && height !== undefined ? { width, height } : FALLBACK_SIZE;
  }
  return FALLBACK_SIZE;
}

interface Fetched {
  html: string;
  size: { width: number; height: number };
}

async function fetchComposition(url: string): Promise<Fetched> {
  const response = await fetch(url).catch((error: unknown) => {
    throw new Error(`${url} could not be loaded: ${(error as Error).message}`);
  });
  if (!response.ok) throw new Error(`${url} could not be loaded (HTTP ${response.status})`);
  const html = await response.text();
  return { html, size: compositionSize(html) };
}

/** The pages of the composition file at `src` (relative to this document), for each config: the file is fetched once. */
export function writtenPage(src: string): (config: BootConfig) => Promise<PageSource> {
  const url = new URL(src, document.baseURI).href.split("#")[0]!;
  let fetched: Promise<Fetched> | undefined;
  return async (config) => {
    fetched ??= fetchComposition(url);
    // A file that could not be fetched is asked for again by the next load.
    const { html, size } = await fetched.catch((error: unknown) => {
      fetched = undefined;
      throw error;
    });
    return { srcdoc: writtenDocument(html, url, runtimeBundleUrl(), config), ...size };
  };
}
