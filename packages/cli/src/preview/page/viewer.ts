// The viewer: the composition in an iframe, seeked frame by frame as a render seeks it, and the
// transport under it. Every frame shown is `__compose.seek(frame / fps)`; a composition that
// builds its state frame by frame (`__compose.needsHistory`) is played through every frame from
// 0, and reloaded when asked for an earlier frame.
import type { ComposeApi, CompositionInfo } from "@compose/runtime";
import { withDeadline } from "@compose/renderer/deadline";
import { app, frameTime } from "./app-state.js";
import { $, $input, element, errorText } from "./dom.js";
import { setStatus, showFrameErrors } from "./findings.js";
import { prepareFrameMedia, setMedia, syncSound } from "./sound.js";
import { animationSegments, type AnimationSegment } from "./animations.js";
import { drawTimeline, movePlayhead, setTimelineEntries } from "./timeline.js";
import { instanceChanges, type BootConfig, type Values } from "./values.js";
import { currentBootConfig } from "./variables-panel.js";

const READY_TIMEOUT_MS = 30_000;
/** Probing media and extracting video frames, as render does before its first frame. */
const MEDIA_TIMEOUT_MS = 180_000;
const CONFIG_PARAMETER = "__compose_config";

/**
 * Per composition page (its __compose): the last frame it was seeked to, when it was seeked
 * through every frame from 0 in order; absent when it jumped.
 */
const playedThrough = new WeakMap<ComposeApi, number | undefined>();

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
  const viewport = $("viewport");
  const style = getComputedStyle(viewport);
  const availableWidth = viewport.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const availableHeight = viewport.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const scale = Math.max(0.05, Math.min(1, availableWidth / width, availableHeight / height));
  $("stage").style.width = `${width * scale}px`;
  $("stage").style.height = `${height * scale}px`;
  $("frames").style.width = `${width}px`;
  $("frames").style.height = `${height}px`;
  $("frames").style.transform = `scale(${scale})`;
  $("stage").dataset.scale = String(scale);
  snapStage();
  $("composition-size").textContent = `${width}x${height} at ${Math.round(scale * 100)}%`;
}

/**
 * Moves the stage onto whole device pixels: centring can leave it half a pixel off, and a
 * composition drawn at a fractional offset is resampled, so it would not match the render.
 */
function snapStage(): void {
  const stage = $("stage");
  stage.style.left = stage.style.top = "";
  const box = stage.getBoundingClientRect();
  const snap = (value: number) => (Math.round(value * devicePixelRatio) - value * devicePixelRatio) / devicePixelRatio;
  stage.style.left = `${snap(box.left)}px`;
  stage.style.top = `${snap(box.top)}px`;
}

export function updateTiming(): void {
  const duration = app.duration;
  app.totalFrames = duration === undefined ? 1 : Math.max(1, Math.round(duration * app.fps));
  app.target = Math.min(app.target, app.totalFrames - 1);
  $input("scrubber").max = String(app.totalFrames - 1);
  $("duration").textContent = duration === undefined ? "?" : duration.toFixed(3);
  $("last-frame").textContent = String(app.totalFrames - 1);
  updateReadout();
  drawTimeline();
}

function updateReadout(): void {
  const frame = app.target;
  $input("scrubber").value = String(frame);
  $("time").textContent = frameTime(frame).toFixed(3);
  $("frame").textContent = String(frame);
  movePlayhead();
}

/** Publishes on the stage what the page is doing, for tests and for anyone reading the DOM. */
export function updatePending(): void {
  const pending = app.busy || app.wantReload || app.applyTimer !== undefined;
  const stage = $("stage");
  stage.dataset.pending = String(pending);
  if (app.shown === undefined) delete stage.dataset.shownFrame;
  else stage.dataset.shownFrame = String(app.shown);
  stage.dataset.shownTime = app.shown === undefined ? "" : String(frameTime(app.shown));
  stage.dataset.config = app.loadedConfig ?? "";
  if (!pending) for (const resolve of app.idleWaiters.splice(0)) resolve();
}

export function whenIdle(): Promise<void> {
  if (!app.busy && !app.wantReload) return Promise.resolve();
  return new Promise((resolve) => app.idleWaiters.push(resolve));
}

/** What a step that took too long fails with: what did not happen, and within how long. */
function notWithin(what: string, ms: number): () => never {
  return () => {
    throw new Error(`${what} within ${ms / 1000} s`);
  };
}

export function seekTo(frame: number): void {
  app.target = Math.max(0, Math.min(app.totalFrames - 1, Math.round(frame)));
  updateReadout();
  void pump();
}

export function requestReload(): void {
  app.wantReload = true;
  void pump();
}

/**
 * Seeks a composition page to `frame` as a render would show it. A composition with history is
 * played through every frame before; false when that needs a fresh page (an earlier frame, or a
 * page that jumped before its history showed).
 */
async function showFrame(api: ComposeApi, frame: number): Promise<boolean> {
  const played = playedThrough.has(api) ? playedThrough.get(api) : -1;
  if (app.needsHistory) {
    if (played === undefined || frame <= played) return false;
    for (let replayed = played + 1; replayed < frame; replayed++) await api.seek(frameTime(replayed));
  }
  await api.seek(frameTime(frame));
  const inOrder = played !== undefined && (app.needsHistory || frame === played + 1);
  playedThrough.set(api, inOrder ? frame : undefined);
  if (api.needsHistory && !app.needsHistory) {
    app.needsHistory = true;
    return inOrder;
  }
  return true;
}

/** Does the queued work, one step at a time: reload the frame, then seek it to the latest target. */
async function pump(): Promise<void> {
  if (app.busy) return;
  app.busy = true;
  updatePending();
  try {
    for (;;) {
      if (app.wantReload) {
        app.wantReload = false;
        if (!(await remountEditedInstances())) await loadFrame();
        continue;
      }
      if (app.api && app.shown !== app.target) {
        const frame = app.target;
        try {
          if (!(await showFrame(app.api, frame))) {
            app.wantReload = true;
            continue;
          }
        } catch (error) {
          app.frameErrors = [`seek to ${frameTime(frame).toFixed(3)} s failed: ${errorText(error)}`];
        }
        app.shown = frame;
        showFrameErrors();
        updatePending();
        continue;
      }
      break;
    }
  } finally {
    app.busy = false;
    updatePending();
  }
}

/** The composition page as the server has it now, whatever its config. */
function pageVersion(): string {
  return `${app.state?.entry.url}?v=${app.state?.version}`;
}

/** Reads the timeline of the page shown: its entries, durations and animations. */
function readTimeline(api: ComposeApi, info: CompositionInfo, iframe: HTMLIFrameElement): void {
  app.duration = info.duration ?? app.state?.composition.duration;
  setTimelineEntries(api.describeTimeline(), frameAnimations(iframe));
  updateTiming();
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
  const { api, state, loadedConfig } = app;
  const iframe = document.getElementById("composition") as HTMLIFrameElement | null;
  if (!api || !state || !iframe || loadedConfig === undefined || app.loadedPage?.split("?")[0] !== state.entry.url || app.needsHistory) return false;
  const resaved = app.loadedPage === pageVersion() ? {} : app.savedFiles.size > 0 ? resavedInstances(iframe, [...app.savedFiles]) : undefined;
  const config = currentBootConfig();
  const edited = instanceChanges(JSON.parse(loadedConfig) as BootConfig, config, state.instances);
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
  app.loadedConfig = JSON.stringify(config);
  app.loadedPage = pageVersion();
  app.savedFiles.clear();
  if (info) readTimeline(api, info, iframe);
  app.shown = undefined;
  app.frameErrors = (info?.timingErrors ?? []).map((error) => `timing: ${error.message}`);
  setStatus("");
  return true;
}

/**
 * Hides a replaced frame at once and removes it once the new one has been painted: tearing down a
 * page with instances takes tens of milliseconds, which the new frame need not wait for.
 */
function retire(frame: HTMLIFrameElement): void {
  frame.removeAttribute("id");
  frame.style.visibility = "hidden";
  requestAnimationFrame(() => setTimeout(() => frame.remove()));
}

/**
 * Loads the composition with the current variables into a new iframe beneath the current one,
 * waits for ready() and seeks it to the target frame, then swaps it in: no blank frame in between.
 */
async function loadFrame(): Promise<void> {
  const state = app.state;
  if (!state) return;
  const config = JSON.stringify(currentBootConfig());
  const { width, height } = compositionSize();
  const page = pageVersion();
  app.savedFiles.clear();
  const url = `${state.entry.url}?${CONFIG_PARAMETER}=${encodeURIComponent(config)}&v=${state.version}`;
  const iframe = element("iframe", { class: "composition loading", title: "composition", width, height, src: url });
  setStatus("loading…");
  const loaded = new Promise((resolve) => iframe.addEventListener("load", resolve, { once: true }));
  $("frames").prepend(iframe);
  const errors: string[] = [];
  let api: ComposeApi | undefined;
  let info: CompositionInfo | undefined;
  // The frame this page was seeked to, none when it did not become ready. Not the target read
  // again: a scrub during the seek moves that on, and pump() then seeks the page there.
  let frame: number | undefined;
  try {
    await withDeadline(loaded, READY_TIMEOUT_MS, notWithin("the composition page did not load", READY_TIMEOUT_MS));
    api = (iframe.contentWindow as (Window & { __compose?: ComposeApi }) | null)?.__compose;
    if (!api) throw new Error("the page runtime did not start in the composition frame");
    info = await withDeadline(api.ready(), READY_TIMEOUT_MS, notWithin("the composition did not become ready", READY_TIMEOUT_MS));
  } catch (error) {
    errors.push(errorText(error));
  }
  if (app.wantReload) {
    // Superseded while loading (a value changed again): the next load replaces this one.
    iframe.remove();
    return;
  }
  if (api && info) {
    try {
      info = await withDeadline(prepareFrameMedia(api, info), MEDIA_TIMEOUT_MS, notWithin("the media were not prepared", MEDIA_TIMEOUT_MS));
    } catch (error) {
      errors.push(`media: ${errorText(error)}`);
    }
    setMedia(api.describeMedia());
    readTimeline(api, info, iframe);
    for (const error of info.timingErrors ?? []) errors.push(`timing: ${error.message}`);
    frame = app.target;
    try {
      app.needsHistory ||= info.needsHistory;
      if (!(await showFrame(api, frame))) {
        // It showed its history only once seeked: a fresh page plays it from 0.
        iframe.remove();
        app.wantReload = true;
        return;
      }
    } catch (error) {
      errors.push(`seek to ${frameTime(frame).toFixed(3)} s failed: ${errorText(error)}`);
    }
  }
  for (const old of [...$("frames").querySelectorAll("iframe")]) if (old !== iframe) retire(old);
  iframe.classList.remove("loading");
  iframe.id = "composition";
  app.api = info ? api : undefined;
  app.pageApi = api;
  app.shown = frame;
  app.loadedConfig = config;
  app.loadedPage = page;
  app.frameErrors = errors;
  showFrameErrors();
  setStatus(errors[0] ?? "", errors.length > 0);
  updatePending();
}

export function setPlaying(playing: boolean): void {
  if (app.playing === playing) return;
  app.playing = playing;
  if (!playing) syncSound(app.target, false);
  $("play").textContent = playing ? "Pause" : "Play";
  $("play").setAttribute("aria-pressed", String(playing));
  if (playing) void play();
}

/** Seeks frame after frame at the chosen fps; when seeking is slower than that, plays slower. */
async function play(): Promise<void> {
  if (app.target >= app.totalFrames - 1) seekTo(0);
  await whenIdle();
  let startedAt = performance.now();
  let startFrame = app.target;
  while (app.playing) {
    await whenIdle();
    if (!app.playing) break;
    let next = app.target + 1;
    if (next >= app.totalFrames) {
      if (!$input("loop").checked) break;
      next = 0;
      startedAt = performance.now();
      startFrame = 0;
    }
    const due = startedAt + ((next - startFrame) * 1000) / app.fps;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait < -250) {
      // Far behind (slow seeks): carry on from here rather than rushing to catch up.
      startedAt = performance.now();
      startFrame = next;
    }
    if (!app.playing) break;
    seekTo(next);
    syncSound(next, true);
  }
  setPlaying(false);
}
