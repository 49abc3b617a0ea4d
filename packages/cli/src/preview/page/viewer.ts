// The viewer: the composition played by @compose/player's CompositionPlayer (the player of
// <compose-player>) in the stage, from pages the preview's server serves with the runtime, and
// the transport under it. What is the studio's own: the state of the project it shows, media
// prepared by the server as render prepares them, and edits of instances that need no reload.
import type { ComposeApi, CompositionInfo } from "@compose/runtime";
import { CompositionPlayer, scaleToFit, type BootConfig, type PageSource } from "@compose/player/core";
import { app } from "./app-state.js";
import { $, $input } from "./dom.js";
import { setStatus, showFrameErrors } from "./findings.js";
import { prepareFrameMedia } from "./frame-media.js";
import { animationSegments, type AnimationSegment } from "./animations.js";
import { drawTimeline, movePlayhead, setTimelineEntries, showPlaying } from "./timeline.js";
import { instanceChanges, type Values } from "./values.js";
import { currentBootConfig } from "./variables-panel.js";

const CONFIG_PARAMETER = "__compose_config";

/** The composition page as the server has it now, whatever its config. */
function pageVersion(): string {
  return `${app.state?.entry.url}?v=${app.state?.version}`;
}

/** The page being loaded (its URL and project version), which becomes app.loadedPage once it shows. */
let loadingPage: string | undefined;

/** The composition page for a config: the server puts the runtime into it, booted with the config in its URL. */
async function servedPage(config: BootConfig): Promise<PageSource> {
  const state = app.state;
  if (!state) throw new Error("the preview has not read the project yet");
  loadingPage = pageVersion();
  app.savedFiles.clear();
  return { src: `${state.entry.url}?${CONFIG_PARAMETER}=${encodeURIComponent(JSON.stringify(config))}&v=${state.version}`, ...compositionSize() };
}

export const player = new CompositionPlayer({
  frames: $("frames"),
  sounds: $("sounds"),
  frameId: "composition",
  page: servedPage,
  prepareMedia: prepareFrameMedia,
  applyWithoutReload: remountEditedInstances,
});

/** The animations of the composition frame and of its instances, each instance's in the parent's time from its host's start. */
function frameAnimations(iframe: HTMLIFrameElement): AnimationSegment[] {
  const top = iframe.contentWindow;
  if (!top) return [];
  const segments = animationSegments(top);
  const starts = new Map((top as Window & { __compose?: ComposeApi }).__compose?.describeTimeline().filter((entry) => entry.kind === "composition").map((entry) => [entry.label, entry.start ?? 0]) ?? []);
  for (const frame of top.document.querySelectorAll<HTMLIFrameElement>("iframe[data-compose-instance]")) {
    const name = frame.getAttribute("data-compose-instance") ?? "";
    if (frame.contentWindow) segments.push(...animationSegments(frame.contentWindow, starts.get(name) ?? 0));
  }
  return segments;
}

export function compositionSize(): { width: number; height: number } {
  const { width, height } = app.state?.composition ?? {};
  return { width: width !== undefined && width > 0 ? width : 640, height: height !== undefined && height > 0 ? height : 360 };
}

/** Scales the composition's own size down to fit the viewer (never up), keeping its aspect. */
export function fitStage(): void {
  const { width, height } = compositionSize();
  const scale = scaleToFit({ viewport: $("viewport"), stage: $("stage"), frames: $("frames") }, { width, height }, false);
  $("stage").dataset.scale = String(scale);
  $("composition-size").textContent = `${width}x${height} at ${Math.round(scale * 100)}%`;
}

function updateTiming(): void {
  $input("scrubber").max = String(player.totalFrames - 1);
  $("duration").textContent = player.duration === undefined ? "?" : player.duration.toFixed(3);
  $("last-frame").textContent = String(player.totalFrames - 1);
  updateReadout();
  drawTimeline();
}

function updateReadout(): void {
  const frame = player.target;
  $input("scrubber").value = String(frame);
  $("time").textContent = player.frameTime(frame).toFixed(3);
  $("frame").textContent = String(frame);
  movePlayhead();
}

/** Publishes on the stage what the page is doing, for tests and for anyone reading the DOM. */
export function updatePending(): void {
  const pending = player.pending || app.applyTimer !== undefined;
  const stage = $("stage");
  stage.dataset.pending = String(pending);
  if (player.shown === undefined) delete stage.dataset.shownFrame;
  else stage.dataset.shownFrame = String(player.shown);
  stage.dataset.shownTime = player.shown === undefined ? "" : String(player.frameTime(player.shown));
  stage.dataset.config = player.loadedConfig ?? "";
}

export function seekTo(frame: number): void {
  player.seek(frame);
}

/** Loads the composition again with the values of the page now. */
export function requestReload(): void {
  player.config = currentBootConfig();
  player.reload();
}

export function setPlaying(playing: boolean): void {
  if (playing) player.play();
  else player.pause();
}

/** Reads the timeline of the page shown: its entries and animations. */
function readTimeline(): void {
  const { api, frame } = player;
  if (api && frame) setTimelineEntries(api.describeTimeline(), frameAnimations(frame));
  drawTimeline();
}

/** Whether the instance of the host `id` in the page shown has timed media, which a remount would leave unprepared; true when it cannot be told. */
function instanceHasMedia(iframe: HTMLIFrameElement, id: string): boolean {
  const frame = iframe.contentDocument?.querySelector<HTMLIFrameElement>(`[data-composition-src][data-composition-id="${CSS.escape(id)}"] > iframe[data-compose-instance]`);
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
  const state = app.state;
  if (!api || !state || !iframe || loadedConfig === undefined || app.loadedPage?.split("?")[0] !== state.entry.url || player.needsHistory) return false;
  const resaved = app.loadedPage === pageVersion() ? {} : app.savedFiles.size > 0 ? resavedInstances(iframe, [...app.savedFiles]) : undefined;
  const config = currentBootConfig();
  const edited = instanceChanges(JSON.parse(loadedConfig) as typeof config, config, state.instances);
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
  app.loadedPage = pageVersion();
  app.savedFiles.clear();
  readTimeline();
  setStatus("");
  return true;
}

/** Shows what the player does: the frame, the transport, the timeline, the page's problems. */
export function bindViewer(): void {
  player.addEventListener("timing", updateTiming);
  player.addEventListener("target", updateReadout);
  let shown: number | undefined;
  player.addEventListener("state", () => {
    updatePending();
    // The page's errors may have grown with the frame it showed.
    if (player.shown !== shown) showFrameErrors();
    shown = player.shown;
  });
  player.addEventListener("loading", () => setStatus("loading…"));
  player.addEventListener("load", () => {
    app.loadedPage = loadingPage;
    readTimeline();
    showFrameErrors();
    const [first] = player.problems;
    setStatus(first?.message ?? "", first !== undefined);
  });
  player.addEventListener("problem", () => showFrameErrors());
  player.addEventListener("sounds", () => showPlaying(player.heard));
  const showPlay = () => {
    $("play").textContent = player.playing ? "Pause" : "Play";
    $("play").setAttribute("aria-pressed", String(player.playing));
  };
  player.addEventListener("play", showPlay);
  player.addEventListener("pause", showPlay);
  player.loop = $input("loop").checked;
  $input("loop").addEventListener("change", () => (player.loop = $input("loop").checked));
}
