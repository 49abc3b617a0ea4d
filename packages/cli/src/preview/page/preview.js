// The compose preview page. Plain JavaScript, no build step: served as is by `compose preview`.
//
// The composition runs in an iframe whose HTML the server sends with the page runtime as its first
// script (the same bundle and boot call render injects), booted with the variables chosen here. The
// page never plays on its own: every frame shown is `__compose.seek(frame / fps)`, as in a render.
// A composition that builds its state frame by frame (`__compose.needsHistory`) is shown as the
// render makes it: played through every frame from 0, reloaded when asked for an earlier frame.

const RENDER_DEFAULT_FPS = 30;
const READY_TIMEOUT_MS = 30_000;
/** Probing media and extracting video frames, as render does before its first frame. */
const MEDIA_TIMEOUT_MS = 180_000;
/** While playing, a sound further than this from the frame's time is moved back in step. */
const AUDIO_DRIFT_S = 0.1;
/** Text and number fields apply this long after the last keystroke; other widgets at once. */
const TYPING_DELAY_MS = 150;
const CONFIG_PARAMETER = "__compose_config";

const $ = (id) => document.getElementById(id);
/** `1 frame`, `2 frames`: a count and its noun in the number the count asks for. */
const plural = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

const app = {
  /** The server's view of the project (see project-state.ts). */
  state: undefined,
  fps: RENDER_DEFAULT_FPS,
  /** Duration in seconds, from the runtime once the frame is ready (else the static metadata). */
  duration: undefined,
  totalFrames: 1,
  /** The frame asked for, and the frame the current iframe shows (undefined: not seeked yet). */
  target: 0,
  shown: undefined,
  /** Variable id -> current widget value. */
  values: {},
  /** Instance id (its host's data-composition-id) -> variable id -> current widget value. */
  instanceValues: {},
  /** The boot config (JSON) the current iframe was loaded with. */
  loadedConfig: undefined,
  iframe: undefined,
  /** The current iframe's window.__compose, once ready. */
  api: undefined,
  wantReload: false,
  busy: false,
  applyTimer: undefined,
  playing: false,
  idleWaiters: [],
  /** Errors of the current frame: ready() failures and the runtime's collected page errors. */
  frameErrors: [],
  /** Whether the composition builds its state frame by frame, learnt from any of its pages. */
  needsHistory: false,
  /** The composition's timed media (describeMedia), once planned: what plays while playing. */
  media: [],
};

/**
 * Per composition page (its __compose): the last frame it was seeked to, when it was seeked
 * through every frame from 0 in order; absent when it jumped.
 */
const playedThrough = new WeakMap();

// ---------------------------------------------------------------------------------------------
// Variables

/** Whether `value` differs from `base`: the declared default, or an instance host's own value. */
function isChanged(variable, value, base = variable.default) {
  if (value === undefined) return false;
  if (variable.type === "color") return String(value).toLowerCase() !== String(base).toLowerCase();
  return value !== base;
}

/**
 * Where a widget's value lives: the top-level composition's values (the boot config's), or one
 * sub-composition instance's (its host's data-variable-values, starting from what the author wrote).
 */
const topScope = {
  key: "",
  idPrefix: "variable-",
  get values() {
    return app.values;
  },
  base: (variable) => variable.default,
};

function instanceScope(instance) {
  return {
    key: instance.id,
    idPrefix: `instance-${instance.id}-`,
    values: app.instanceValues[instance.id],
    base: (variable) => (Object.hasOwn(instance.values, variable.id) ? instance.values[variable.id] : variable.default),
  };
}

/** Per instance whose values were edited: its host's values with the edits, as the host's data-variable-values. */
function changedInstances() {
  const changed = {};
  for (const instance of app.state?.instances ?? []) {
    const scope = instanceScope(instance);
    const edits = instance.variables.filter((variable) => isChanged(variable, scope.values[variable.id], scope.base(variable)));
    if (edits.length > 0) changed[instance.id] = { ...instance.values, ...Object.fromEntries(edits.map((variable) => [variable.id, scope.values[variable.id]])) };
  }
  return changed;
}

function resetInstanceValues() {
  app.instanceValues = {};
  for (const instance of app.state?.instances ?? []) {
    const scope = { ...instanceScope(instance), values: {} };
    for (const variable of instance.variables) scope.values[variable.id] = scope.base(variable);
    app.instanceValues[instance.id] = scope.values;
  }
}

/** The values that differ from the declared defaults, in declaration order: what --variables needs. */
function changedValues() {
  const changed = {};
  for (const variable of app.state?.variables ?? []) {
    const value = app.values[variable.id];
    if (isChanged(variable, value)) changed[variable.id] = value;
  }
  return changed;
}

function bootConfig() {
  const instances = changedInstances();
  return Object.keys(instances).length > 0 ? { variables: changedValues(), instances } : { variables: changedValues() };
}

function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function renderCommand() {
  if (!app.state) return "";
  let command = app.state.renderCommand;
  if (app.fps !== RENDER_DEFAULT_FPS) command += ` --fps ${app.fps}`;
  const changed = changedValues();
  if (Object.keys(changed).length > 0) command += ` --variables ${shellQuote(JSON.stringify(changed))}`;
  return command;
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

/** Sets a value from a widget and applies it (after `delay` ms, so typing does not reload per key). */
function setValue(scope, variable, value, delay) {
  scope.values[variable.id] = value;
  document
    .querySelector(`[data-scope="${CSS.escape(scope.key)}"] [data-variable="${CSS.escape(variable.id)}"]`)
    ?.classList.toggle("changed", isChanged(variable, value, scope.base(variable)));
  updateCommand();
  scheduleApply(delay);
}

function scheduleApply(delay) {
  clearTimeout(app.applyTimer);
  app.applyTimer = setTimeout(() => {
    app.applyTimer = undefined;
    if (JSON.stringify(bootConfig()) !== app.loadedConfig) requestReload();
    updatePending();
  }, delay);
  updatePending();
}

/** The widget for one declaration, chosen from its type and fields, labelled by its label. */
function variableWidget(variable, scope = topScope) {
  const id = `${scope.idPrefix}${variable.id}`;
  const value = scope.values[variable.id];
  const row = element("div", { class: "variable", "data-variable": variable.id, "data-type": variable.type });
  row.classList.toggle("changed", isChanged(variable, value, scope.base(variable)));
  const label = element("label", { for: id }, variable.label);
  const control = element("div", { class: "control" });
  row.append(label, control);

  switch (variable.type) {
    case "string": {
      const input = element("input", { id, type: "text", placeholder: variable.placeholder, maxlength: variable.maxLength });
      input.value = value;
      input.addEventListener("input", () => {
        const text = variable.maxLength === undefined ? input.value : input.value.slice(0, variable.maxLength);
        setValue(scope, variable, text, TYPING_DELAY_MS);
      });
      control.append(input);
      break;
    }
    case "number": {
      const input = element("input", { id, type: "number", min: variable.min, max: variable.max, step: variable.step ?? "any" });
      input.value = String(value);
      control.append(input);
      let slider;
      if (variable.min !== undefined && variable.max !== undefined) {
        slider = element("input", {
          type: "range",
          min: variable.min,
          max: variable.max,
          step: variable.step ?? "any",
          "aria-label": `${variable.label} slider`,
        });
        slider.value = String(value);
        slider.addEventListener("input", () => {
          input.value = slider.value;
          setValue(scope, variable, Number(slider.value), 0);
        });
        control.append(slider);
      }
      if (variable.unit) control.append(element("span", { class: "unit" }, variable.unit));
      input.addEventListener("input", () => {
        if (input.value.trim() === "" || !Number.isFinite(input.valueAsNumber)) return;
        if (slider) slider.value = input.value;
        setValue(scope, variable, input.valueAsNumber, TYPING_DELAY_MS);
      });
      break;
    }
    case "color": {
      const input = element("input", { id, type: "color" });
      input.value = String(value).toLowerCase();
      const hex = element("span", { class: "hex" }, input.value);
      input.addEventListener("input", () => {
        hex.textContent = input.value;
        setValue(scope, variable, input.value, 0);
      });
      control.append(input, hex);
      break;
    }
    case "boolean": {
      const input = element("input", { id, type: "checkbox" });
      input.checked = Boolean(value);
      input.addEventListener("change", () => setValue(scope, variable, input.checked, 0));
      control.append(input);
      break;
    }
    case "enum": {
      const select = element("select", { id });
      for (const option of variable.options) select.append(element("option", { value: option.value }, option.label));
      select.value = value;
      select.addEventListener("change", () => setValue(scope, variable, select.value, 0));
      control.append(select);
      break;
    }
    default:
      control.append(element("span", {}, `(unsupported type ${variable.type})`));
  }
  return row;
}

function buildVariablesPanel() {
  const form = $("variables");
  form.replaceChildren(...(app.state?.variables ?? []).map((variable) => variableWidget(variable)));
  const instances = app.state?.instances ?? [];
  $("instance-variables").replaceChildren(
    ...instances.map((instance) => {
      const scope = instanceScope(instance);
      return element(
        "fieldset",
        { class: "instance", "data-scope": instance.id },
        element("legend", {}, `${instance.id} (${instance.src})`),
        ...instance.variables.map((variable) => variableWidget(variable, scope)),
      );
    }),
  );
  $("no-variables").hidden = (app.state?.variables ?? []).length > 0 || instances.length > 0;
  $("reset-variables").hidden = (app.state?.variables ?? []).length === 0 && instances.length === 0;
}

/** Keeps the values of variables that still exist with the same type; others take their default. */
function adoptDeclarations(variables, previous) {
  const old = new Map((previous ?? []).map((variable) => [variable.id, variable]));
  const values = {};
  for (const variable of variables) {
    const before = old.get(variable.id);
    const value = app.values[variable.id];
    const keep =
      before?.type === variable.type &&
      value !== undefined &&
      (variable.type !== "enum" || variable.options.some((option) => option.value === value));
    values[variable.id] = keep ? value : variable.default;
  }
  app.values = values;
}

// ---------------------------------------------------------------------------------------------
// Command, lint and errors

function updateCommand() {
  $("render-command").textContent = renderCommand();
}

async function copyCommand() {
  const text = renderCommand();
  $("render-command").textContent = text;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    // No clipboard permission (or an insecure context): select the text and copy the old way.
    const range = document.createRange();
    range.selectNodeContents($("render-command"));
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    copied = document.execCommand("copy");
  }
  $("copy-result").textContent = copied ? "Copied" : "Select the command and copy it";
  setTimeout(() => ($("copy-result").textContent = ""), 2000);
}

function showLint() {
  const lint = app.state?.lint;
  const list = $("lint-findings");
  if (app.state?.error) {
    $("lint-summary").textContent = app.state.error;
    $("lint-summary").className = "error";
    list.replaceChildren();
    return;
  }
  if (!lint) return;
  $("lint-summary").className = lint.errors > 0 ? "error" : lint.warnings > 0 ? "warning" : "";
  $("lint-summary").textContent = `${plural(lint.errors, "error")}, ${plural(lint.warnings, "warning")} in ${plural(lint.files.length, "file")}`;
  list.replaceChildren(
    ...lint.findings.map((finding) =>
      element(
        "li",
        { class: finding.severity, "data-code": finding.code },
        element("span", { class: "severity" }, finding.severity),
        element("code", {}, finding.code),
        " ",
        finding.message,
        element("span", { class: "location" }, `${finding.file}:${finding.line}:${finding.column}`),
      ),
    ),
  );
}

function showFrameErrors() {
  const errors = [...app.frameErrors];
  for (const error of app.api?.errors ?? []) {
    const where = error.source ? ` (${error.source}:${error.line}:${error.column})` : "";
    errors.push(`${error.kind === "unhandledrejection" ? "unhandled rejection" : "error"}: ${error.message}${where}`);
  }
  $("page-errors-title").hidden = errors.length === 0;
  $("page-errors").replaceChildren(...errors.map((message) => element("li", {}, message)));
}

function setStatus(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

// ---------------------------------------------------------------------------------------------
// Frames, seeking, playing

function frameTime(frame) {
  return frame / app.fps;
}

function compositionSize() {
  const { width, height } = app.state?.composition ?? {};
  return { width: width > 0 ? width : 640, height: height > 0 ? height : 360 };
}

/** Scales the composition's own size down to fit the viewer (never up), keeping its aspect. */
function fitStage() {
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
function snapStage() {
  const stage = $("stage");
  stage.style.left = stage.style.top = "";
  const box = stage.getBoundingClientRect();
  const snap = (value) => (Math.round(value * devicePixelRatio) - value * devicePixelRatio) / devicePixelRatio;
  stage.style.left = `${snap(box.left)}px`;
  stage.style.top = `${snap(box.top)}px`;
}

function updateTiming() {
  const duration = app.duration;
  app.totalFrames = duration === undefined ? 1 : Math.max(1, Math.round(duration * app.fps));
  app.target = Math.min(app.target, app.totalFrames - 1);
  $("scrubber").max = String(app.totalFrames - 1);
  $("duration").textContent = duration === undefined ? "?" : duration.toFixed(3);
  $("last-frame").textContent = String(app.totalFrames - 1);
  updateReadout();
  drawTimeline();
}

function updateReadout() {
  const frame = app.target;
  $("scrubber").value = String(frame);
  $("time").textContent = frameTime(frame).toFixed(3);
  $("frame").textContent = String(frame);
  movePlayhead();
}

function updatePending() {
  const pending = app.busy || app.wantReload || app.applyTimer !== undefined;
  const stage = $("stage");
  stage.dataset.pending = String(pending);
  if (app.shown === undefined) delete stage.dataset.shownFrame;
  else stage.dataset.shownFrame = String(app.shown);
  stage.dataset.shownTime = app.shown === undefined ? "" : String(frameTime(app.shown));
  stage.dataset.config = app.loadedConfig ?? "";
  if (!pending) for (const resolve of app.idleWaiters.splice(0)) resolve();
}

function whenIdle() {
  if (!app.busy && !app.wantReload) return Promise.resolve();
  return new Promise((resolve) => app.idleWaiters.push(resolve));
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function seekTo(frame) {
  app.target = Math.max(0, Math.min(app.totalFrames - 1, Math.round(frame)));
  updateReadout();
  pump();
}

function requestReload() {
  app.wantReload = true;
  pump();
}

/**
 * Seeks a composition page to `frame` as a render would show it. A composition with history is
 * played through every frame before; false when that needs a fresh page (an earlier frame, or a
 * page that jumped before its history showed).
 */
async function showFrame(api, frame) {
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
async function pump() {
  if (app.busy) return;
  app.busy = true;
  updatePending();
  try {
    for (;;) {
      if (app.wantReload) {
        app.wantReload = false;
        await loadFrame();
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
          app.frameErrors = [`seek to ${frameTime(frame).toFixed(3)} s failed: ${error?.message ?? error}`];
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

/**
 * Loads the composition with the current variables into a new iframe beneath the current one,
 * waits for ready() and seeks it to the target frame, then swaps it in: no blank frame in between.
 */
async function loadFrame() {
  const config = JSON.stringify(bootConfig());
  const { width, height } = compositionSize();
  const url = `${app.state.entry.url}?${CONFIG_PARAMETER}=${encodeURIComponent(config)}&v=${app.state.version}`;
  const iframe = element("iframe", { class: "composition loading", title: "composition", width, height, src: url });
  setStatus("loading…");
  const loaded = new Promise((resolve) => iframe.addEventListener("load", resolve, { once: true }));
  $("frames").prepend(iframe);
  const errors = [];
  let api;
  let info;
  try {
    await withTimeout(loaded, READY_TIMEOUT_MS, "the composition page did not load");
    api = iframe.contentWindow?.__compose;
    if (!api) throw new Error("the page runtime did not start in the composition frame");
    info = await withTimeout(api.ready(), READY_TIMEOUT_MS, "the composition did not become ready");
  } catch (error) {
    errors.push(error?.message ?? String(error));
  }
  if (app.wantReload) {
    // Superseded while loading (a value changed again): the next load replaces this one.
    iframe.remove();
    return;
  }
  if (info) {
    try {
      info = await withTimeout(prepareFrameMedia(api, info), MEDIA_TIMEOUT_MS, "the media were not prepared");
    } catch (error) {
      errors.push(`media: ${error?.message ?? error}`);
    }
    setMedia(api.describeMedia());
    app.duration = info.duration ?? app.state.composition.duration;
    timeline.entries = api.describeTimeline();
    updateTiming();
    for (const error of info.timingErrors ?? []) errors.push(`timing: ${error.message}`);
    try {
      app.needsHistory ||= info.needsHistory;
      if (!(await showFrame(api, app.target))) {
        // It showed its history only once seeked: a fresh page plays it from 0.
        iframe.remove();
        app.wantReload = true;
        return;
      }
    } catch (error) {
      errors.push(`seek to ${frameTime(app.target).toFixed(3)} s failed: ${error?.message ?? error}`);
    }
  }
  for (const old of [...$("frames").querySelectorAll("iframe")]) if (old !== iframe) old.remove();
  iframe.classList.remove("loading");
  iframe.id = "composition";
  app.iframe = iframe;
  app.api = info ? api : undefined;
  app.shown = info ? app.target : undefined;
  app.loadedConfig = config;
  app.frameErrors = errors;
  showFrameErrors();
  setStatus(errors.length > 0 ? errors[0] : "", errors.length > 0);
  updatePending();
}

// ---------------------------------------------------------------------------------------------
// Media: the frames render extracts, and sound while playing

/**
 * Hands the composition page the plans render hands its pages: the natural length of media
 * without data-duration, and each video's frames extracted by ffmpeg at this fps, which the page
 * shows instead of playing the video. Resolves to the page's description, updated.
 */
async function prepareFrameMedia(api, info) {
  const media = api.describeMedia();
  if (media.length === 0) return info;
  setStatus("preparing media…");
  const response = await fetch("/__compose/media", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fps: app.fps, media }),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.code ? `${answer.code}: ${answer.error}` : answer.error);
  return api.prepareMedia(answer.plans);
}

/** The sounds render mixes, played by elements of this page (the composition's own stay silent, as in a render). */
const sounds = new Map();

function setMedia(media) {
  if (JSON.stringify(media) === JSON.stringify(app.media)) return;
  app.media = media;
  for (const audio of sounds.values()) {
    audio.pause();
    audio.remove();
  }
  sounds.clear();
}

/**
 * The volume a sound plays at: the level render mixes it at, its data-volume times the element's
 * own volume now (a script's fade, which render mixes as an envelope; 0 once a script muted it).
 * The browser plays a mono source at that level in both channels, as render's mix does.
 */
function soundVolume(media, gains) {
  return Math.min(1, Math.max(0, media.volume * (gains[media.key] ?? 1)));
}

/** Plays, at the frame's time, every audible clip that covers it, at its soundVolume; pauses the rest. */
function syncSound(frame, playing) {
  const t = frameTime(frame);
  const heard = new Set();
  const gains = playing ? (app.api?.mediaGains() ?? {}) : {};
  for (const media of playing ? app.media : []) {
    if (!media.audible || media.start === undefined || !media.src || media.volume === 0) continue;
    const local = t - media.start;
    if (local < 0 || local >= (media.duration ?? Infinity)) continue;
    heard.add(media.key);
    let audio = sounds.get(media.key);
    if (!audio) {
      audio = element("audio", { src: media.src, preload: "auto", "data-key": media.key });
      $("sounds").append(audio);
      sounds.set(media.key, audio);
    }
    audio.volume = soundVolume(media, gains);
    audio.playbackRate = media.playbackRate;
    const expected = media.mediaStart + local * media.playbackRate;
    if (audio.paused || Math.abs(audio.currentTime - expected) > AUDIO_DRIFT_S) audio.currentTime = expected;
    if (audio.paused) audio.play().catch(() => undefined);
  }
  for (const [key, audio] of sounds) if (!heard.has(key) && !audio.paused) audio.pause();
}

function setPlaying(playing) {
  if (app.playing === playing) return;
  app.playing = playing;
  if (!playing) syncSound(app.target, false);
  $("play").textContent = playing ? "Pause" : "Play";
  $("play").setAttribute("aria-pressed", String(playing));
  if (playing) play();
}

/** Seeks frame after frame at the chosen fps; when seeking is slower than that, plays slower. */
async function play() {
  if (app.target >= app.totalFrames - 1) seekTo(0);
  await whenIdle();
  let startedAt = performance.now();
  let startFrame = app.target;
  while (app.playing) {
    await whenIdle();
    if (!app.playing) break;
    let next = app.target + 1;
    if (next >= app.totalFrames) {
      if (!$("loop").checked) break;
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

// ---------------------------------------------------------------------------------------------
// Timeline

/** Width of the lane labels, in CSS pixels (the stylesheet reads it as --label-width). */
const LABEL_WIDTH = 140;
/** Ruler steps in seconds: the first that leaves this many pixels between labels is used. */
const RULER_STEPS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300];
const RULER_MIN_GAP_PX = 64;

const timeline = {
  /** The composition's timed elements from the runtime (describeTimeline), after each load. */
  entries: [],
  /** Keys of the instances shown with their own lanes. */
  expanded: new Set(),
  /** Pixels per second as last drawn. */
  scale: 1,
};

function formatSeconds(seconds) {
  return seconds === undefined ? "?" : seconds.toFixed(3);
}

function entryLabel(entry) {
  return entry.label ?? `(${entry.kind === "clip" ? "unnamed" : entry.kind})`;
}

function sourcePath(src) {
  try {
    const url = new URL(src);
    return url.origin === location.origin ? decodeURIComponent(url.pathname) : src;
  } catch {
    return src;
  }
}

/** What hovering a clip shows: start, duration, track and, for media and instances, the source. */
function describeEntry(entry) {
  const duration = entry.duration === undefined ? "to the end" : `${formatSeconds(entry.duration)} s`;
  const parts = [`${entryLabel(entry)} (${entry.kind})`, `start ${formatSeconds(entry.start)} s`, `duration ${duration}`, `track ${entry.track ?? "none"}`];
  if (entry.src) parts.push(`source ${sourcePath(entry.src)}`);
  return parts.join(", ");
}

/**
 * Lanes to draw, one per track index in order (untracked elements last); an expanded instance
 * adds the lanes of its own elements right under the lane it sits in.
 */
function timelineLanes(entries, prefix, owner, depth) {
  const byTrack = new Map();
  entries.forEach((entry, index) => {
    if (entry.start === undefined) return;
    const track = entry.track ?? Infinity;
    if (!byTrack.has(track)) byTrack.set(track, []);
    byTrack.get(track).push({ entry, key: prefix === "" ? String(index) : `${prefix}/${index}` });
  });
  const lanes = [];
  for (const track of [...byTrack.keys()].sort((a, b) => a - b)) {
    const name = track === Infinity ? "no track" : `track ${track}`;
    const items = byTrack.get(track);
    lanes.push({ label: owner ? `${owner} › ${name}` : name, track, depth, items });
    for (const { entry, key } of items) {
      if (entry.children && timeline.expanded.has(key)) lanes.push(...timelineLanes(entry.children, key, entryLabel(entry), depth + 1));
    }
  }
  return lanes;
}

/** Pixels per second: the whole composition fits the panel at zoom 0; each zoom step doubles. */
function timelineScale() {
  const available = $("timeline-scroll").clientWidth - LABEL_WIDTH - 32;
  const fit = Math.max(8, available / Math.max(app.duration ?? 1, 1 / app.fps));
  return fit * 2 ** Number($("zoom").value);
}

function drawRuler(duration, scale) {
  const step = RULER_STEPS.find((candidate) => candidate * scale >= RULER_MIN_GAP_PX) ?? RULER_STEPS.at(-1);
  const ticks = [];
  for (let i = 0; i * step <= duration + 1e-9; i++) {
    const tick = element("span", {}, `${+(i * step).toFixed(2)} s`);
    tick.style.left = `${i * step * scale}px`;
    ticks.push(tick);
  }
  $("ruler").replaceChildren(...ticks);
}

function clipElement({ entry, key }, duration, scale) {
  const length = entry.duration ?? Math.max(0, duration - entry.start);
  const clip = element("div", { class: "clip", "data-kind": entry.kind, "data-key": key, "data-label": entryLabel(entry), title: describeEntry(entry) });
  clip.classList.toggle("open-ended", entry.duration === undefined);
  clip.style.left = `${entry.start * scale}px`;
  clip.style.width = `${length * scale}px`;
  if (entry.children) {
    const open = timeline.expanded.has(key);
    const toggle = element(
      "button",
      { type: "button", class: "expand", "aria-expanded": String(open), "aria-label": `${open ? "Collapse" : "Expand"} ${entryLabel(entry)}` },
      open ? "▾" : "▸",
    );
    toggle.addEventListener("click", () => {
      if (open) timeline.expanded.delete(key);
      else timeline.expanded.add(key);
      drawTimeline();
    });
    clip.append(toggle);
  }
  clip.append(entryLabel(entry));
  return clip;
}

function drawTimeline() {
  // Redrawing replaces the clips: an expander that had the focus keeps it.
  const focusedKey = document.activeElement?.closest?.(".clip")?.dataset.key;
  const duration = app.duration ?? 0;
  const scale = timelineScale();
  timeline.scale = scale;
  $("timeline").style.setProperty("--label-width", `${LABEL_WIDTH}px`);
  $("timeline").style.width = `${LABEL_WIDTH + duration * scale + 8}px`;
  drawRuler(duration, scale);
  $("lanes").replaceChildren(
    ...timelineLanes(timeline.entries, "", undefined, 0).map((lane) => {
      const track = element("div", { class: "lane-track" }, ...lane.items.map((item) => clipElement(item, duration, scale)));
      const row = element("div", { class: `lane${lane.depth > 0 ? " nested" : ""}`, "data-track": lane.track === Infinity ? "" : lane.track });
      row.append(element("div", { class: "lane-label", title: lane.label }, lane.label), track);
      return row;
    }),
  );
  if (focusedKey !== undefined) document.querySelector(`.clip[data-key="${CSS.escape(focusedKey)}"] .expand`)?.focus();
  movePlayhead();
}

function movePlayhead() {
  $("playhead").style.left = `${LABEL_WIDTH + frameTime(app.target) * timeline.scale}px`;
  $("timeline").setAttribute("aria-valuemax", String(app.totalFrames - 1));
  $("timeline").setAttribute("aria-valuenow", String(app.target));
  $("timeline").setAttribute("aria-valuetext", `frame ${app.target}, ${frameTime(app.target).toFixed(3)} s`);
}

/** The frame under a pointer on the timeline. */
function frameAt(clientX) {
  const x = clientX - $("timeline").getBoundingClientRect().left - LABEL_WIDTH;
  return Math.round((Math.max(0, x) / timeline.scale) * app.fps);
}

function setZoom(value) {
  const zoom = $("zoom");
  zoom.value = String(Math.max(Number(zoom.min), Math.min(Number(zoom.max), value)));
  drawTimeline();
}

function bindTimeline() {
  const area = $("timeline");
  area.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || event.target.closest("button")) return;
    setPlaying(false);
    area.setPointerCapture(event.pointerId);
    seekTo(frameAt(event.clientX));
  });
  area.addEventListener("pointermove", (event) => {
    if (area.hasPointerCapture(event.pointerId)) seekTo(frameAt(event.clientX));
  });
  area.addEventListener("mouseover", (event) => {
    const clip = event.target.closest?.(".clip");
    $("timeline-hover").textContent = clip ? clip.title : "";
  });
  $("zoom").addEventListener("input", drawTimeline);
  $("zoom-in").addEventListener("click", () => setZoom(Number($("zoom").value) + 1));
  $("zoom-out").addEventListener("click", () => setZoom(Number($("zoom").value) - 1));
  new ResizeObserver(drawTimeline).observe($("timeline-scroll"));
}

// ---------------------------------------------------------------------------------------------
// Render from the page: the preview server runs render() and streams its events

const render = { id: undefined, events: undefined };

function fillSelect(select, values, chosen) {
  if (select.options.length > 0) return;
  select.replaceChildren(...values.map((value) => element("option", { value }, String(value))));
  select.value = String(chosen);
}

function buildRenderPanel() {
  const choices = app.state?.renderChoices;
  if (!choices) return;
  fillSelect($("render-format"), choices.formats, choices.defaults.format);
  fillSelect($("render-quality"), choices.qualities, choices.defaults.quality);
  fillSelect($("render-fps"), choices.fps, choices.defaults.fps);
}

function renderMessage(kind, code, message) {
  $("render-messages").append(element("li", { class: kind, "data-code": code }, element("span", { class: "severity" }, kind), element("code", {}, code), " ", message));
}

function setRendering(running) {
  $("render-start").disabled = running;
  $("render-cancel").hidden = !running;
  $("render-panel").dataset.state = running ? "running" : (render.state ?? "idle");
}

/** Whole numbers as numbers, the rest as typed: the server's schema names what is allowed. */
function optionValue(text) {
  return /^-?\d+$/.test(text.trim()) ? Number(text) : text.trim();
}

async function startRender() {
  const body = {
    format: $("render-format").value,
    quality: $("render-quality").value,
    fps: optionValue($("render-fps").value),
    workers: optionValue($("render-workers").value),
    variables: changedValues(),
    instances: changedInstances(),
  };
  $("render-messages").replaceChildren();
  $("render-result").hidden = true;
  $("render-progress").hidden = true;
  render.state = undefined;
  setRendering(true);
  $("render-status").textContent = "starting…";
  let answer;
  try {
    const response = await fetch("/__compose/renders", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error ?? `the preview server answered ${response.status}`);
  } catch (error) {
    render.state = "refused";
    setRendering(false);
    $("render-status").textContent = error?.message ?? String(error);
    return;
  }
  render.id = answer.id;
  const events = new EventSource(`/__compose/renders/${answer.id}/events`);
  render.events = events;
  events.addEventListener("message", (message) => showRenderEvent(JSON.parse(message.data)));
}

function showRenderEvent(event) {
  const progress = $("render-progress");
  switch (event.type) {
    case "output":
      render.output = event.url;
      break;
    case "started":
      progress.hidden = false;
      progress.value = 0;
      $("render-status").textContent = `rendering ${plural(event.totalFrames, "frame")}, ${event.width}x${event.height} at ${event.fps} fps, ${plural(event.workers, "worker")}`;
      break;
    case "progress":
      progress.value = event.percent;
      $("render-status").textContent = `${event.stage === "capture" ? "capturing" : "assembling"}: frame ${event.frame} of ${event.totalFrames} (${Math.round(event.percent)}%)`;
      break;
    case "warning":
      renderMessage("warning", event.code, event.message);
      break;
    case "finished": {
      progress.value = 100;
      const megabytes = (event.sizeBytes / 1e6).toFixed(2);
      $("render-status").textContent = `finished: ${plural(event.frames, "frame")}, ${event.durationSeconds.toFixed(3)} s, ${megabytes} MB in ${(event.elapsedMs / 1000).toFixed(1)} s`;
      const url = `${render.output}?t=${Date.now()}`;
      $("render-video").src = url;
      $("render-link").href = render.output;
      $("render-link").download = render.output.split("/").pop();
      $("render-link").textContent = `Download ${decodeURIComponent(render.output.slice(1))}`;
      $("render-result").hidden = false;
      endRender("finished");
      break;
    }
    case "failed":
      renderMessage("error", event.code, event.message);
      $("render-status").textContent = event.code === "cancelled" ? "cancelled" : "failed";
      endRender(event.code === "cancelled" ? "cancelled" : "failed");
      break;
  }
}

function endRender(state) {
  // The stream ends here; an EventSource left open would reconnect and replay it.
  render.events?.close();
  render.events = undefined;
  render.state = state;
  setRendering(false);
}

async function cancelRender() {
  if (render.id === undefined) return;
  await fetch(`/__compose/renders/${render.id}/cancel`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
}

function bindRenderPanel() {
  $("render-form").addEventListener("submit", (event) => {
    event.preventDefault();
    startRender();
  });
  $("render-cancel").addEventListener("click", cancelRender);
  $("composition-list").addEventListener("change", () => pickComposition($("composition-list").value));
}

// ---------------------------------------------------------------------------------------------
// Project state and live reload

async function fetchState() {
  const response = await fetch("/__compose/state", { cache: "no-store" });
  if (!response.ok) throw new Error(`the preview server answered ${response.status}`);
  return response.json();
}

async function refresh() {
  const previous = app.state;
  const state = await fetchState();
  app.state = state;
  const declarationsChanged = JSON.stringify(previous?.variables) !== JSON.stringify(state.variables);
  const instancesChanged = JSON.stringify(previous?.instances) !== JSON.stringify(state.instances);
  if (declarationsChanged) adoptDeclarations(state.variables, previous?.variables);
  if (instancesChanged) resetInstanceValues();
  if (declarationsChanged || instancesChanged) buildVariablesPanel();
  const { id } = state.composition;
  $("composition-name").textContent = `${id ?? "(no composition element)"} — ${state.entry.file}`;
  document.title = `${id ?? state.entry.file} — compose preview`;
  if (app.duration === undefined) {
    app.duration = state.composition.duration;
    updateTiming();
  }
  if (previous && previous.entry.url !== state.entry.url) {
    // Another composition: its own duration, timeline and frames.
    app.duration = state.composition.duration;
    app.target = 0;
    app.needsHistory = false;
    timeline.expanded.clear();
    updateTiming();
  }
  buildCompositionPicker();
  fitStage();
  buildRenderPanel();
  updateCommand();
  showLint();
}

/** The project's compositions, offered when there is more than one; picking one makes the server show it. */
function buildCompositionPicker() {
  const compositions = app.state?.compositions ?? [];
  const current = decodeURIComponent(app.state.entry.url.slice(1));
  $("composition-picker").hidden = compositions.length < 2;
  const list = $("composition-list");
  if (JSON.stringify([...list.options].map((option) => option.value)) !== JSON.stringify(compositions)) {
    list.replaceChildren(...compositions.map((path) => element("option", { value: path }, path)));
  }
  list.value = current;
}

async function pickComposition(path) {
  const response = await fetch("/__compose/entry", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path }) });
  if (!response.ok) setStatus((await response.json()).error, true);
  // The server announces the change; the page then reloads the state and the frame.
}

function listenForChanges() {
  const events = new EventSource("/__compose/events");
  events.addEventListener("change", async () => {
    try {
      await refresh();
    } catch (error) {
      setStatus(String(error?.message ?? error), true);
    }
    requestReload();
  });
}

// ---------------------------------------------------------------------------------------------
// Controls

function bindControls() {
  $("play").addEventListener("click", () => setPlaying(!app.playing));
  $("prev-frame").addEventListener("click", () => {
    setPlaying(false);
    seekTo(app.target - 1);
  });
  $("next-frame").addEventListener("click", () => {
    setPlaying(false);
    seekTo(app.target + 1);
  });
  $("scrubber").addEventListener("input", () => {
    setPlaying(false);
    seekTo(Number($("scrubber").value));
  });
  $("fps").addEventListener("change", () => {
    // Keep the time, not the frame number.
    const time = frameTime(app.target);
    app.fps = Number($("fps").value);
    updateTiming();
    // History is played once per frame, so another frame rate is another history; video frames
    // are extracted at the frame rate.
    if (app.needsHistory || app.media.length > 0) requestReload();
    seekTo(Math.round(time * app.fps));
    updateCommand();
  });
  $("reset-variables").addEventListener("click", () => {
    for (const variable of app.state?.variables ?? []) app.values[variable.id] = variable.default;
    resetInstanceValues();
    buildVariablesPanel();
    updateCommand();
    scheduleApply(0);
  });
  $("copy-command").addEventListener("click", copyCommand);
  $("variables").addEventListener("submit", (event) => event.preventDefault());
  $("instance-variables").addEventListener("submit", (event) => event.preventDefault());
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLElement && target.closest("input, select, textarea, button") !== null;
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === " ") setPlaying(!app.playing);
    else if (event.key === "ArrowLeft") seekTo(app.target - (event.shiftKey ? app.fps : 1));
    else if (event.key === "ArrowRight") seekTo(app.target + (event.shiftKey ? app.fps : 1));
    else if (event.key === "Home") seekTo(0);
    else if (event.key === "End") seekTo(app.totalFrames - 1);
    else if (event.key === "+" || event.key === "=") setZoom(Number($("zoom").value) + 1);
    else if (event.key === "-") setZoom(Number($("zoom").value) - 1);
    else return;
    event.preventDefault();
  });
  new ResizeObserver(fitStage).observe($("viewport"));
  bindTimeline();
  bindRenderPanel();
}

async function start() {
  bindControls();
  try {
    await refresh();
  } catch (error) {
    setStatus(String(error?.message ?? error), true);
    return;
  }
  listenForChanges();
  requestReload();
}

start();
