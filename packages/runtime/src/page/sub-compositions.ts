import { writtenDocument } from "@compose/core";
import type { ComposeApi, CompositionInfo } from "../api.js";
import { findCompositionRoot } from "./composition-root.js";
import { documentUrl, isWrittenDocument } from "./document-url.js";
import { inheritanceFor, offerInheritance } from "./inheritance.js";
import { RUNTIME_SCRIPT } from "./runtime-script.js";
import type { TimedElement } from "./timed-elements.js";

/** The element that embeds another composition file. */
export const HOST_SELECTOR = "[data-composition-src]";

/** Frame times never reach an instance's end exactly, so its last state holds (clips end at [start, end)). */
const LAST_STATE_EPSILON_S = 1e-6;

export interface Instance {
  host: Element;
  frame: HTMLIFrameElement;
  api: ComposeApi;
  /** Replaced when the instance learns more about itself (media durations). */
  info: CompositionInfo;
}

/** Host values given at boot, by data-composition-id, when this frame is the top-level composition. */
let givenValues: Record<string, Record<string, unknown>> = {};

export function setInstanceValues(values: Record<string, Record<string, unknown>> | undefined): void {
  if (values && !window.frameElement?.closest(HOST_SELECTOR)) givenValues = values;
}

/** Mounted instances of this frame, by host, so timing can use an instance's own duration. */
const instances = new Map<Element, Instance>();

export function instanceDuration(host: Element): number | undefined {
  return instances.get(host)?.info.duration;
}

/** Calls `fn` for each mounted instance, in the order of their hosts in the document. */
export function eachInstance<T>(fn: (instance: Instance, index: number) => T): T[] {
  return Array.from(instances.values(), fn);
}

function hostName(host: Element): string {
  return host.getAttribute("data-composition-id") ?? host.getAttribute("data-composition-src") ?? "(unnamed)";
}

function withoutHash(url: string): string {
  return url.split("#")[0]!;
}

/** This frame's file and its ancestors', top first, up to the first frame of another origin: a file that appears among them is a cycle. */
function frameChain(): string[] {
  const chain: string[] = [];
  for (let current: Window = window; ; current = current.parent) {
    try {
      chain.unshift(documentUrl(current));
    } catch {
      return chain;
    }
    if (current === current.parent) return chain;
  }
}

function fileName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
}

/**
 * Points `frame` at the instance's file, checked first: a file among the frames above this one is
 * a cycle, a file that does not answer is not found. A frame whose document was written in has no
 * server that puts the runtime into its files: the instance's document is written in too.
 */
async function loadSource(frame: HTMLIFrameElement, host: Element, url: string): Promise<void> {
  const chain = frameChain();
  if (chain.includes(url)) {
    const files = [...chain.slice(chain.indexOf(url)), url].map(fileName).join(" -> ");
    throw new Error(`sub-composition cycle: ${files}`);
  }
  const written = isWrittenDocument();
  const response = await fetch(url, { method: written ? "GET" : "HEAD" }).catch(() => undefined);
  if (!response?.ok) {
    const src = host.getAttribute("data-composition-src");
    throw new Error(`sub-composition "${hostName(host)}": ${src} was not found (${response ? `HTTP ${response.status}` : "no response"})`);
  }
  if (!written) {
    frame.src = url;
    return;
  }
  const runtimeUrl = RUNTIME_SCRIPT instanceof HTMLScriptElement ? RUNTIME_SCRIPT.src : "";
  if (!runtimeUrl)
    throw new Error(
      `sub-composition "${hostName(host)}": the compose runtime of a written document must come from a <script src> to be written into its instances`,
    );
  frame.srcdoc = writtenDocument(await response.text(), url, runtimeUrl, {});
}

function loadFrame(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve) => frame.addEventListener("load", () => resolve(), { once: true }));
}

const FRAME_STYLE = "display:block;border:0;margin:0;padding:0;background:transparent;overflow:hidden;";

/**
 * Each instance is a same-origin iframe of its own document, so ids, CSS, scripts, timelines and
 * variables of one instance can never meet another's; the runtime runs in every frame and this
 * parent seeks the children. What an inline piece would share with the host crosses on purpose
 * (see inheritance.ts). A frame `replacing` another loads unseen beside it and takes its place
 * once ready.
 */
async function mountInstance(host: Element, replacing?: HTMLIFrameElement): Promise<Instance> {
  const url = withoutHash(new URL(host.getAttribute("data-composition-src")!, document.baseURI).href);
  const id = host.getAttribute("data-composition-id");
  if (id !== null && Object.hasOwn(givenValues, id)) host.setAttribute("data-variable-values", JSON.stringify(givenValues[id]));
  const frame = document.createElement("iframe");
  frame.setAttribute("data-compose-instance", hostName(host));
  frame.setAttribute("scrolling", "no");
  frame.style.cssText = replacing ? `${FRAME_STYLE}position:absolute;visibility:hidden;` : FRAME_STYLE;
  offerInheritance(frame, await inheritanceFor(host));
  await loadSource(frame, host, url);
  const loaded = loadFrame(frame);
  host.appendChild(frame);
  await loaded;
  const api = (frame.contentWindow as (Window & { __compose?: ComposeApi }) | null)?.__compose;
  if (!api) throw new Error(`sub-composition "${hostName(host)}": the compose runtime did not start in ${fileName(url)}`);
  const info = await api.ready().catch((error: unknown) => {
    // The child's Error comes from another realm, so instanceof Error cannot recognise it.
    const message = (error as { message?: unknown } | null)?.message ?? String(error);
    throw new Error(`sub-composition "${hostName(host)}" (${fileName(url)}): ${String(message)}`);
  });
  if (replacing) {
    replacing.remove();
    frame.style.cssText = FRAME_STYLE;
  }
  frame.style.width = `${info.width}px`;
  frame.style.height = `${info.height}px`;
  return { host, frame, api, info };
}

/** Mounts every host of this composition (the live DOM, after its scripts ran), children first ready. */
export async function mountSubCompositions(): Promise<void> {
  const root = findCompositionRoot();
  if (!root) return;
  const hosts = Array.from(root.querySelectorAll(HOST_SELECTOR)).filter((host) => !instances.has(host));
  const mounted = await Promise.all(hosts.map((host) => mountInstance(host)));
  for (const instance of mounted) instances.set(instance.host, instance);
}

/**
 * Mounts the instance whose host's data-composition-id is `id` again, in a fresh frame booted with
 * `values` as its host's data-variable-values, which replaces the old frame once ready; the rest of
 * the page stays as it is. The next seek shows it at its time.
 */
export async function remountInstance(id: string, values: Record<string, unknown>): Promise<void> {
  const mounted = Array.from(instances.values());
  const old = mounted.find((instance) => instance.host.getAttribute("data-composition-id") === id);
  if (!old)
    throw new Error(
      `remountInstance: no sub-composition instance has data-composition-id "${id}" (there are: ${mounted.map((instance) => hostName(instance.host)).join(", ") || "none"})`,
    );
  givenValues = { ...givenValues, [id]: values };
  instances.set(old.host, await mountInstance(old.host, old.frame));
}

/**
 * Seeks every visible instance to its local time: 0 at its host's start, holding its last state
 * when its own timeline is shorter than the host's window. Hidden instances are left until they
 * show, since nothing of them is drawn. Resolves to whether any instance's frame changed.
 */
export async function seekSubCompositions(clips: readonly TimedElement[], t: number): Promise<boolean> {
  if (instances.size === 0) return false;
  const seeks: Promise<boolean>[] = [];
  for (const { element, timing } of clips) {
    const instance = instances.get(element);
    if (!instance) continue;
    const start = timing?.start ?? 0;
    const end = timing?.end;
    if (t < start || (end !== undefined && t >= end)) continue;
    const own = instance.info.duration;
    const local = own === undefined ? t - start : Math.min(t - start, Math.max(0, own - LAST_STATE_EPSILON_S));
    seeks.push(instance.api.seek(local).then(() => instance.api.changed));
  }
  return (await Promise.all(seeks)).some(Boolean);
}
