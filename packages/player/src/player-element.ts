// <compose-player src="card/index.html" controls loop>: a composition playing in any web page
// through the same runtime as compose render, scaled to the element's box.
import { CompositionPlayer, type BootConfig, type PageSource } from "./composition-player.js";
import { prepareMediaInBrowser } from "./browser-media.js";
import { ELEMENT_STYLE } from "./element-style.js";
import { scaleToFit } from "./fit-stage.js";
import type { PlayerProblem } from "./problems.js";
import { writtenPage } from "./written-page.js";

/** What an `error` event carries (its `detail`): the render's code for the failure and one line. */
export type ComposePlayerError = PlayerProblem;

/** The element's events, with an element's own (its `error` is the player's). */
export interface ComposePlayerEventMap extends Omit<HTMLElementEventMap, "error"> {
  ready: Event;
  timeupdate: Event;
  play: Event;
  pause: Event;
  ended: Event;
  error: CustomEvent<ComposePlayerError>;
}

export interface ComposePlayerElement {
  addEventListener<K extends keyof ComposePlayerEventMap>(
    type: K,
    listener: (this: ComposePlayerElement, event: ComposePlayerEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ComposePlayerEventMap>(
    type: K,
    listener: (this: ComposePlayerElement, event: ComposePlayerEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function part<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, ...children: Node[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.append(...children);
  return node;
}

/**
 * The element: attributes `src` (the composition's HTML file, relative to the page), `controls`,
 * `loop`, `muted`, `fps` (default 30, as render) and `variables` (JSON). Events: `ready` (a
 * composition loaded and its frame shown, after each src or variables change), `timeupdate`
 * (another frame shown), `play`, `pause`, `ended`, `error` (detail: { code, message }).
 */
export class ComposePlayerElement extends HTMLElement {
  static readonly observedAttributes = ["src", "controls", "loop", "muted", "fps", "variables"];

  readonly #player: CompositionPlayer;
  readonly #viewport = part("div", "viewport");
  readonly #stage = part("div", "stage");
  readonly #frames = part("div", "frames");
  readonly #playButton = part("button", "play");
  readonly #scrubber = part("input", "scrubber");
  readonly #time = part("output", "time");
  readonly #controls = part("div", "controls", this.#playButton, this.#scrubber, this.#time);
  #page: ((config: BootConfig) => Promise<PageSource>) | undefined;
  #reloadQueued = false;
  #size = { width: 640, height: 360 };
  #shownFrame: number | undefined;
  #lastProblem: PlayerProblem | null = null;
  /** How many of the page's errors and load failures were reported as `error` events. */
  #reported = { errors: 0, failures: 0 };

  constructor() {
    super();
    const sounds = part("div", "sounds");
    sounds.hidden = true;
    this.#player = new CompositionPlayer({
      frames: this.#frames,
      sounds,
      page: (config) => {
        if (!this.#page) throw new Error("compose-player has no src");
        return this.#page(config);
      },
      prepareMedia: prepareMediaInBrowser,
    });
    this.#stage.append(this.#frames);
    this.#viewport.append(this.#stage, sounds);
    const style = document.createElement("style");
    style.textContent = ELEMENT_STYLE;
    this.attachShadow({ mode: "open" }).append(style, this.#viewport, this.#controls);
    this.#bindControls();
    this.#bindPlayer();
    this.addEventListener("keydown", (event) => this.#onKey(event));
    new ResizeObserver(() => this.#fit()).observe(this.#viewport);
  }

  connectedCallback(): void {
    if (!this.hasAttribute("tabindex")) this.tabIndex = 0;
  }

  /** Taken out of the page, it stops playing (its sound with it). */
  disconnectedCallback(): void {
    this.pause();
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    switch (name) {
      case "src":
        this.#page = value === null ? undefined : writtenPage(value);
        this.#player.startOver(undefined);
        if (value !== null) this.#queueReload();
        break;
      case "controls":
        this.#controls.hidden = value === null;
        break;
      case "loop":
        this.#player.loop = value !== null;
        break;
      case "muted":
        this.#player.muted = value !== null;
        break;
      case "fps": {
        const fps = Number(value ?? 30);
        this.#player.setFps(Number.isInteger(fps) && fps > 0 ? fps : 30);
        break;
      }
      case "variables":
        try {
          this.variables = value === null ? {} : (JSON.parse(value) as Record<string, unknown>);
        } catch {
          this.#report({ code: "invalid-composition", message: `the variables attribute must be a JSON object (got ${value})` });
        }
        break;
    }
  }

  /** The composition's HTML file, resolved against the page. */
  get src(): string {
    return this.getAttribute("src") ?? "";
  }

  set src(value: string) {
    this.setAttribute("src", value);
  }

  play(): void {
    this.#player.play();
  }

  pause(): void {
    this.#player.pause();
  }

  get paused(): boolean {
    return !this.#player.playing;
  }

  get fps(): number {
    return this.#player.fps;
  }

  set fps(fps: number) {
    this.setAttribute("fps", String(fps));
  }

  /** The frame asked for; setting it seeks there, frame-exactly. */
  get currentFrame(): number {
    return this.#player.target;
  }

  set currentFrame(frame: number) {
    this.#player.seek(frame);
  }

  /** Seconds: the time of the frame asked for. Setting it seeks to the frame at that time (rounded to the nearest frame). */
  get currentTime(): number {
    return this.#player.frameTime(this.#player.target);
  }

  set currentTime(seconds: number) {
    this.#player.seek(seconds * this.#player.fps);
  }

  /** Seconds; NaN until the composition is loaded. */
  get duration(): number {
    return this.#player.duration ?? Number.NaN;
  }

  /** How many frames the composition has at the fps. */
  get totalFrames(): number {
    return this.#player.totalFrames;
  }

  /** The values of the composition's variables as set here (the composition's defaults for the rest); setting them shows the composition with them. */
  get variables(): Record<string, unknown> {
    return { ...this.#player.config.variables };
  }

  set variables(values: Record<string, unknown>) {
    if (!isPlainObject(values)) throw new TypeError("variables must be an object of values by variable id");
    this.#player.config = { ...this.#player.config, variables: { ...values } };
    if (this.#page) this.#queueReload();
  }

  get playbackRate(): number {
    return this.#player.playbackRate;
  }

  set playbackRate(rate: number) {
    this.#player.playbackRate = rate;
  }

  get muted(): boolean {
    return this.#player.muted;
  }

  set muted(muted: boolean) {
    this.#player.muted = muted;
  }

  get volume(): number {
    return this.#player.volume;
  }

  set volume(volume: number) {
    this.#player.volume = volume;
  }

  get loop(): boolean {
    return this.hasAttribute("loop");
  }

  set loop(loop: boolean) {
    this.toggleAttribute("loop", loop);
  }

  get controls(): boolean {
    return this.hasAttribute("controls");
  }

  set controls(controls: boolean) {
    this.toggleAttribute("controls", controls);
  }

  /** The last problem reported with an `error` event; null when there was none. */
  get error(): ComposePlayerError | null {
    return this.#lastProblem;
  }

  /** Resolves once nothing is queued: the frame asked for (with the variables set) is the frame shown. */
  async whenIdle(): Promise<void> {
    // A load queued for the end of this task has not started yet: wait for it to.
    if (this.#reloadQueued) await new Promise<void>((resolve) => queueMicrotask(resolve));
    return this.#player.whenIdle();
  }

  /** Loads the composition once the current task is done: attributes set together (src, variables) cost one load. */
  #queueReload(): void {
    if (this.#reloadQueued) return;
    this.#reloadQueued = true;
    queueMicrotask(() => {
      this.#reloadQueued = false;
      this.#player.reload();
    });
  }

  #fit(): void {
    scaleToFit({ viewport: this.#viewport, stage: this.#stage, frames: this.#frames }, this.#size, true);
  }

  #report(problem: PlayerProblem): void {
    this.#lastProblem = problem;
    this.dispatchEvent(new CustomEvent<ComposePlayerError>("error", { detail: problem }));
  }

  /** Reports what the page's runtime collected since the last report: script errors and failed loads. */
  #reportPage(): void {
    const api = this.#player.pageApi;
    if (!api) return;
    const errors = api.errors;
    for (const error of errors.slice(this.#reported.errors)) {
      const where = error.source ? ` (${error.source}:${error.line}:${error.column})` : "";
      this.#report({ code: "page-error", message: `${error.kind === "unhandledrejection" ? "unhandled rejection" : "error"}: ${error.message}${where}` });
    }
    const failures = api.loadFailures;
    for (const failure of failures.slice(this.#reported.failures)) {
      this.#report({ code: "missing-asset", message: `${failure.type} ${failure.url} failed to load (requested by ${failure.document})` });
    }
    this.#reported = { errors: errors.length, failures: failures.length };
  }

  #bindPlayer(): void {
    const player = this.#player;
    for (const type of ["play", "pause", "ended"]) player.addEventListener(type, () => this.dispatchEvent(new Event(type)));
    player.addEventListener("play", () => this.#showPlaying());
    player.addEventListener("pause", () => this.#showPlaying());
    player.addEventListener("problem", (event) => this.#report((event as CustomEvent<PlayerProblem>).detail));
    player.addEventListener("timing", () => {
      this.#scrubber.max = String(player.totalFrames - 1);
      this.#showTime();
    });
    player.addEventListener("target", () => this.#showTime());
    player.addEventListener("load", () => {
      const { frame, info } = player;
      if (info) {
        this.#size = { width: info.width, height: info.height };
        this.style.setProperty("--compose-aspect", `${info.width} / ${info.height}`);
        this.#fit();
      }
      this.#reported = { errors: 0, failures: 0 };
      for (const problem of player.problems) this.#report(problem);
      this.#reportPage();
      // The runtime tells every window above it of a failure found late (a background image).
      frame?.contentWindow?.addEventListener("compose:loadfailure", () => frame === player.frame && this.#reportPage());
      if (player.api) this.dispatchEvent(new Event("ready"));
    });
    player.addEventListener("state", () => {
      if (player.shown === this.#shownFrame) return;
      this.#shownFrame = player.shown;
      this.#reportPage();
      if (player.shown !== undefined) this.dispatchEvent(new Event("timeupdate"));
    });
  }

  #bindControls(): void {
    this.#controls.hidden = true;
    this.#playButton.type = "button";
    this.#playButton.addEventListener("click", () => (this.#player.playing ? this.pause() : this.play()));
    this.#scrubber.type = "range";
    this.#scrubber.min = "0";
    this.#scrubber.step = "1";
    this.#scrubber.setAttribute("aria-label", "Frame");
    this.#scrubber.addEventListener("input", () => {
      this.pause();
      this.#player.seek(Number(this.#scrubber.value));
    });
    this.#showPlaying();
  }

  #showPlaying(): void {
    this.#playButton.textContent = this.#player.playing ? "Pause" : "Play";
    this.#playButton.setAttribute("aria-pressed", String(this.#player.playing));
  }

  #showTime(): void {
    const { duration, target } = this.#player;
    this.#scrubber.value = String(target);
    this.#time.textContent = `${this.currentTime.toFixed(2)} / ${duration === undefined ? "?" : duration.toFixed(2)} s`;
  }

  /** Space plays or pauses; the arrows step a frame (with Shift, a second); Home and End go to the first and last frame. */
  #onKey(event: KeyboardEvent): void {
    const inner = event.composedPath()[0];
    if (inner instanceof HTMLElement && inner !== this && inner.closest("input, button, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = event.shiftKey ? this.#player.fps : 1;
    const player = this.#player;
    if (event.key === " ") player.playing ? this.pause() : this.play();
    else if (event.key === "ArrowLeft") player.seek(player.target - step);
    else if (event.key === "ArrowRight") player.seek(player.target + step);
    else if (event.key === "Home") player.seek(0);
    else if (event.key === "End") player.seek(player.totalFrames - 1);
    else return;
    event.preventDefault();
  }
}
