// The player of the composition shown: @compose/player's CompositionPlayer (the player of
// <compose-player>) in the stage, playing pages the preview's server serves with the runtime.
// What is the studio's own: the project it shows (from the store), media prepared by the server
// as render prepares them, and edits of instances that need no reload. Panels drive it and listen
// to its events; what its page holds (the timeline) it puts in the store.
import type { ComposeApi, CompositionInfo } from "@compose/runtime";
import { CompositionPlayer, type BootConfig, type PageSource } from "@compose/player/core";
import { animationSegments, type AnimationSegment } from "./animations.js";
import { app, compositionSize, pageBootConfig, setStatus } from "./app-state.js";
import { $ } from "./dom.js";
import { prepareFrameMedia } from "./frame-media.js";
import { instanceChanges, type Values } from "./values.js";

const CONFIG_PARAMETER = "__compose_config";

/** The composition page as the server has it now, whatever its config. */
function pageVersion(): string {
  const { project } = app.get();
  return `${project?.entry.url}?v=${project?.version}`;
}

/** The page being loaded (its URL and project version), which becomes `loadedPage` once it shows. */
let loadingPage: string | undefined;
/** The composition page (its URL and project version, without the config) the current iframe was loaded from. */
let loadedPage: string | undefined;

/** The composition page for a config: the server puts the runtime into it, booted with the config in its URL. */
async function servedPage(config: BootConfig): Promise<PageSource> {
  const state = app.get();
  if (!state.project) throw new Error("the preview has not read the project yet");
  loadingPage = pageVersion();
  app.update({ savedFiles: [] });
  return {
    src: `${state.project.entry.url}?${CONFIG_PARAMETER}=${encodeURIComponent(JSON.stringify(config))}&v=${state.project.version}`,
    ...compositionSize(state),
  };
}

export const player = new CompositionPlayer({
  frames: $("frames"),
  sounds: $("sounds"),
  frameId: "composition",
  page: servedPage,
  prepareMedia: prepareFrameMedia,
  applyWithoutReload: remountEditedInstances,
});

/** Loads the composition again with the values chosen now. */
export function requestReload(): void {
  player.config = pageBootConfig(app.get());
  player.reload();
}

export function setPlaying(playing: boolean): void {
  if (playing) player.play();
  else player.pause();
}

/** The animations of the composition frame and of its instances, each instance's in the parent's time from its host's start. */
function frameAnimations(iframe: HTMLIFrameElement): AnimationSegment[] {
  const top = iframe.contentWindow;
  if (!top) return [];
  const segments = animationSegments(top);
  const starts = new Map(
    (top as Window & { __compose?: ComposeApi }).__compose
      ?.describeTimeline()
      .filter((entry) => entry.kind === "composition")
      .map((entry) => [entry.label, entry.start ?? 0]) ?? [],
  );
  for (const frame of top.document.querySelectorAll<HTMLIFrameElement>("iframe[data-compose-instance]")) {
    const name = frame.getAttribute("data-compose-instance") ?? "";
    if (frame.contentWindow) segments.push(...animationSegments(frame.contentWindow, starts.get(name) ?? 0));
  }
  return segments;
}

/** Puts the timeline of the page shown in the store; a page without its runtime keeps the last one, drawn again (its media may have changed). */
function readTimeline(): void {
  const { api, frame } = player;
  app.update((state) => ({ timeline: api && frame ? { entries: api.describeTimeline(), animations: frameAnimations(frame) } : { ...state.timeline } }));
}

player.addEventListener("load", () => {
  loadedPage = loadingPage;
  readTimeline();
});

/** Whether the instance of the host `id` in the page shown has timed media, which a remount would leave unprepared; true when it cannot be told. */
function instanceHasMedia(iframe: HTMLIFrameElement, id: string): boolean {
  const frame = iframe.contentDocument?.querySelector<HTMLIFrameElement>(
    `[data-composition-src][data-composition-id="${CSS.escape(id)}"] > iframe[data-compose-instance]`,
  );
  const api = (frame?.contentWindow as (Window & { __compose?: ComposeApi }) | null | undefined)?.__compose;
  return api === undefined || api.describeMedia().length > 0;
}

/**
 * The instances of the page shown to mount again for the files saved since it loaded: those whose
 * host names one of them, by data-composition-id. Undefined when a saved file is anything else
 * (the composition's own file, a style sheet, a library), which the whole page must load again for.
 */
function resavedInstances(iframe: HTMLIFrameElement, files: readonly string[]): Record<string, Values> | undefined {
  const doc = iframe.contentDocument;
  if (!doc) return undefined;
  const hosts = new Map<string, Element[]>();
  for (const host of doc.querySelectorAll("[data-composition-src][data-composition-id]")) {
    const file = decodeURIComponent(new URL(host.getAttribute("data-composition-src")!, doc.baseURI).pathname.slice(1));
    hosts.set(file, [...(hosts.get(file) ?? []), host]);
  }
  const resaved: Record<string, Values> = {};
  for (const file of files) {
    const saved = hosts.get(file.split("\\").join("/"));
    if (!saved) return undefined;
    for (const host of saved) resaved[host.getAttribute("data-composition-id")!] = JSON.parse(host.getAttribute("data-variable-values") ?? "{}") as Values;
  }
  return resaved;
}

/**
 * Applies an edit of instance values, or a save of instance files, alone to the page shown: only
 * those instances are mounted again and the frame is seeked again; the composition and its other
 * instances stay loaded. False when the whole page must be loaded again instead: its own file or
 * values changed, it builds up history, an instance to mount has media to prepare, or the remount
 * failed.
 */
async function remountEditedInstances(): Promise<boolean> {
  const { api, frame: iframe, loadedConfig } = player;
  const state = app.get();
  const { project, savedFiles } = state;
  if (!api || !project || !iframe || loadedConfig === undefined || loadedPage?.split("?")[0] !== project.entry.url || player.needsHistory) return false;
  const resaved = loadedPage === pageVersion() ? {} : savedFiles.length > 0 ? resavedInstances(iframe, savedFiles) : undefined;
  const config = pageBootConfig(state);
  const edited = instanceChanges(JSON.parse(loadedConfig) as typeof config, config, project.instances);
  if (!resaved || !edited) return false;
  const changes = { ...resaved, ...edited };
  // Nothing of these changed: the reload was asked for something else (another fps, say).
  if (Object.keys(changes).length === 0 || Object.keys(changes).some((id) => instanceHasMedia(iframe, id))) return false;
  setStatus("loading…");
  let info: CompositionInfo | undefined;
  try {
    for (const [id, values] of Object.entries(changes)) info = await api.remountInstance(id, values);
  } catch {
    // The full load shows why, with the page's errors.
    return false;
  }
  if (info?.needsHistory) return false;
  player.adoptRemount(config, info);
  loadedPage = pageVersion();
  app.update({ savedFiles: [] });
  readTimeline();
  setStatus("");
  return true;
}
