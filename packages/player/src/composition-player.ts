// The composition in an iframe, seeked frame by frame as a render seeks it, with its sound in step.
// Every frame shown is `__compose.seek(frame / fps)`; a composition that builds its state frame by
// frame (`__compose.needsHistory`) is played through every frame from 0, and loaded again when
// asked for an earlier frame. The <compose-player> element and the studio both play through it.
import type { ComposeApi, CompositionInfo, MediaDescription } from "@compose/runtime";
import { withDeadline } from "@compose/renderer/deadline";
import { errorText, NotReadyError, type PlayerErrorCode, type PlayerProblem } from "./problems.js";
import { FramePace } from "./frame-pace.js";
import { Sounds } from "./sounds.js";

const READY_TIMEOUT_MS = 30_000;
/** Probing media and extracting video frames, as render does before its first frame. */
const MEDIA_TIMEOUT_MS = 180_000;
/** The longest frames wait for a sound behind them: past it, they go on and the sound is moved to them. */
const SOUND_HOLD_MS = 500;
/** How often a frame held for a sound looks where the sound is. */
const SOUND_POLL_MS = 4;
/** Frames per second when none is chosen: render's default. */
export const DEFAULT_FPS = 30;

/** The runtime's boot config a page is loaded with: the values of its variables and of its instances. */
export interface BootConfig {
  variables?: Record<string, unknown>;
  /** Values for sub-composition hosts by data-composition-id, in place of their data-variable-values. */
  instances?: Record<string, Record<string, unknown>>;
}

/** The composition page for one boot config, the runtime its first script, and its size. */
export interface PageSource {
  /** A URL whose server puts the runtime into the page (the studio's). */
  src?: string;
  /** Or the page written in, the runtime in it (a player on any web server). */
  srcdoc?: string;
  width: number;
  height: number;
}

export interface CompositionPlayerOptions {
  /** Where the composition's frames go, at the composition's own size. */
  frames: HTMLElement;
  /** Where the elements that play its sound go. */
  sounds: HTMLElement;
  /** The page to load for a config. */
  page(config: BootConfig): Promise<PageSource>;
  /** Hands a ready page what render hands its pages before the first frame (media lengths, video frames); resolves to its description, updated. */
  prepareMedia(api: ComposeApi, info: CompositionInfo, fps: number): Promise<CompositionInfo>;
  /** Applies the config without loading the page again when it can (instance values alone); false when the page must load again. */
  applyWithoutReload?(): Promise<boolean>;
  /** The id the frame shown carries (none on the frames loading or leaving). */
  frameId?: string;
}

type RuntimeWindow = Window & { __compose?: ComposeApi };

/** A problem of the composition as the frame shows it. */
function problem(code: PlayerErrorCode, message: string): PlayerProblem {
  return { code, message };
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
 * Plays a composition: loads it into a frame through the runtime, seeks it frame-exactly, plays it
 * frame after frame at the fps with its sound. Events: `timing` (duration, fps, frame count),
 * `target` (the frame asked for), `state` (the frame shown, pending work), `loading`, `load` (a
 * page became the one shown, or failed to: see `problems`), `problem` (one found later), `play`,
 * `pause`, `ended`, `sounds` (which sounds play).
 */
export class CompositionPlayer extends EventTarget {
  readonly #options: CompositionPlayerOptions;
  readonly #sounds: Sounds;
  #fps = DEFAULT_FPS;
  #duration: number | undefined;
  #totalFrames = 1;
  #target = 0;
  #shown: number | undefined;
  #config: BootConfig = {};
  #loadedConfig: string | undefined;
  #api: ComposeApi | undefined;
  #pageApi: ComposeApi | undefined;
  #frame: HTMLIFrameElement | undefined;
  #info: CompositionInfo | undefined;
  #problems: PlayerProblem[] = [];
  #needsHistory = false;
  #wantReload = false;
  #busy = false;
  #idleWaiters: Array<() => void> = [];
  #playing = false;
  /** Counts plays, so that a play paused and started again before its loop noticed runs once. */
  #plays = 0;
  #rate = 1;
  /** Where the play's clock started: the wall time and the frame then. */
  #clock = { at: 0, frame: 0 };
  /**
   * Per composition page (its __compose): the last frame it was seeked to, when it was seeked
   * through every frame from 0 in order; absent when it jumped.
   */
  readonly #playedThrough = new WeakMap<ComposeApi, number | undefined>();
  /** Whether a play starts again from the first frame after the last. */
  loop = false;

  constructor(options: CompositionPlayerOptions) {
    super();
    this.#options = options;
    this.#sounds = new Sounds(options.sounds);
  }

  get fps(): number {
    return this.#fps;
  }

  /** Another frame rate keeps the time shown; a composition with history or timed media loads again (its history and video frames are per frame). */
  setFps(fps: number): void {
    if (fps === this.#fps) return;
    const time = this.frameTime(this.#target);
    this.#fps = fps;
    this.#updateTiming();
    if (this.#needsHistory || this.#sounds.media.length > 0) this.reload();
    this.seek(Math.round(time * fps));
  }

  /** Seconds; undefined until known. */
  get duration(): number | undefined {
    return this.#duration;
  }

  /** What the page's own file says of its duration, until a page tells: a page that knows replaces it. */
  setDuration(duration: number | undefined): void {
    this.#duration = duration;
    this.#updateTiming();
  }

  get totalFrames(): number {
    return this.#totalFrames;
  }

  /** The frame asked for. */
  get target(): number {
    return this.#target;
  }

  /** The frame the page shown was seeked to; undefined before its first seek. */
  get shown(): number | undefined {
    return this.#shown;
  }

  frameTime(frame: number): number {
    return frame / this.#fps;
  }

  /** The page shown's runtime, once ready; undefined when it did not become ready. */
  get api(): ComposeApi | undefined {
    return this.#api;
  }

  /** The page shown's runtime even when it did not become ready: its load failures and errors. */
  get pageApi(): ComposeApi | undefined {
    return this.#pageApi;
  }

  /** The frame of the page shown. */
  get frame(): HTMLIFrameElement | undefined {
    return this.#frame;
  }

  /** The page shown's description (ready(), with its media prepared). */
  get info(): CompositionInfo | undefined {
    return this.#info;
  }

  /** What went wrong loading or seeking the page shown. */
  get problems(): readonly PlayerProblem[] {
    return this.#problems;
  }

  /** Whether the composition builds its state frame by frame, learnt from any of its pages. */
  get needsHistory(): boolean {
    return this.#needsHistory;
  }

  /** The composition's timed media (describeMedia), once prepared. */
  get media(): readonly MediaDescription[] {
    return this.#sounds.media;
  }

  /** The config to load pages with; a change shows once reload() loads it. */
  get config(): BootConfig {
    return this.#config;
  }

  set config(config: BootConfig) {
    this.#config = config;
  }

  /** The config (as JSON) the page shown was loaded with. */
  get loadedConfig(): string | undefined {
    return this.#loadedConfig;
  }

  /** Whether anything is queued: a load, or a seek to a frame not shown yet. */
  get pending(): boolean {
    return this.#busy || this.#wantReload;
  }

  get playing(): boolean {
    return this.#playing;
  }

  get playbackRate(): number {
    return this.#rate;
  }

  /** Frames and sounds at `rate` times their speed; the sounds keep their pitch. */
  set playbackRate(rate: number) {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError(`playbackRate must be a number above 0 (got ${String(rate)})`);
    this.#rate = rate;
    this.#sounds.rate = rate;
    this.#clock = { at: performance.now(), frame: this.#target };
  }

  get volume(): number {
    return this.#sounds.volume;
  }

  set volume(volume: number) {
    if (!(volume >= 0 && volume <= 1)) throw new RangeError(`volume must be a number from 0 to 1 (got ${String(volume)})`);
    this.#sounds.volume = volume;
    this.#syncSound();
  }

  get muted(): boolean {
    return this.#sounds.muted;
  }

  set muted(muted: boolean) {
    this.#sounds.muted = muted;
    this.#syncSound();
  }

  /** The sounds playing now, by media key. */
  get heard(): ReadonlySet<string> {
    return this.#sounds.heard;
  }

  isSoundMuted(key: string): boolean {
    return this.#sounds.isMuted(key);
  }

  /** Silences one sound here (render still mixes it). */
  setSoundMuted(key: string, mute: boolean): void {
    this.#sounds.setMuted(key, mute);
    this.#syncSound();
  }

  whenIdle(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Asks for `frame` (clamped to the composition once its duration is known); it shows once the page has been seeked there. */
  seek(frame: number): void {
    const last = this.#duration === undefined ? Infinity : this.#totalFrames - 1;
    this.#target = Math.max(0, Math.min(last, Math.round(frame)));
    this.#emit("target");
    void this.#pump();
  }

  /** Loads the page again with the current config (or applies it without a load, when the options can). */
  reload(): void {
    this.#wantReload = true;
    void this.#pump();
  }

  /** Another composition: from its first frame, with nothing learnt of the last. */
  startOver(duration: number | undefined): void {
    this.#target = 0;
    this.#needsHistory = false;
    this.setDuration(duration);
  }

  /**
   * What the options' applyWithoutReload did: the page shown took `config` (its instances mounted
   * again) and describes itself as `info`; it is seeked again.
   */
  adoptRemount(config: BootConfig, info: CompositionInfo | undefined): void {
    this.#loadedConfig = JSON.stringify(config);
    if (info) this.#adoptInfo(info);
    this.#shown = undefined;
    this.#problems = (info?.timingErrors ?? []).map((error) => problem("invalid-composition", `timing: ${error.message}`));
  }

  play(): void {
    if (this.#playing) return;
    this.#playing = true;
    this.#emit("play");
    void this.#play(++this.#plays);
  }

  pause(): void {
    if (!this.#playing) return;
    this.#playing = false;
    this.#syncSound();
    this.#emit("pause");
  }

  #emit(type: string): void {
    this.dispatchEvent(new Event(type));
  }

  #updateTiming(): void {
    const duration = this.#duration;
    this.#totalFrames = duration === undefined ? 1 : Math.max(1, Math.round(duration * this.#fps));
    if (duration !== undefined) this.#target = Math.min(this.#target, this.#totalFrames - 1);
    this.#emit("timing");
    this.#emit("target");
  }

  #updateState(): void {
    if (!this.pending) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    this.#emit("state");
  }

  #adoptInfo(info: CompositionInfo): void {
    this.#info = info;
    this.#duration = info.duration ?? this.#duration;
    this.#updateTiming();
  }

  /**
   * Seeks a composition page to `frame` as a render would show it. A composition with history is
   * played through every frame before; false when that needs a fresh page (an earlier frame, or a
   * page that jumped before its history showed).
   */
  async #showFrame(api: ComposeApi, frame: number): Promise<boolean> {
    const played = this.#playedThrough.has(api) ? this.#playedThrough.get(api) : -1;
    if (this.#needsHistory) {
      if (played === undefined || frame <= played) return false;
      for (let replayed = played + 1; replayed < frame; replayed++) await api.seek(this.frameTime(replayed));
    }
    await api.seek(this.frameTime(frame));
    const inOrder = played !== undefined && (this.#needsHistory || frame === played + 1);
    this.#playedThrough.set(api, inOrder ? frame : undefined);
    if (api.needsHistory && !this.#needsHistory) {
      this.#needsHistory = true;
      return inOrder;
    }
    return true;
  }

  /** Does the queued work, one step at a time: load the page, then seek it to the latest target. */
  async #pump(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.#updateState();
    try {
      for (;;) {
        if (this.#wantReload) {
          this.#wantReload = false;
          if (!(await this.#options.applyWithoutReload?.())) await this.#loadFrame();
          continue;
        }
        if (this.#api && this.#shown !== this.#target) {
          const frame = this.#target;
          try {
            if (!(await this.#showFrame(this.#api, frame))) {
              this.#wantReload = true;
              continue;
            }
          } catch (error) {
            this.#problems = [problem("page-error", `seek to ${this.frameTime(frame).toFixed(3)} s failed: ${errorText(error)}`)];
            this.dispatchEvent(new CustomEvent("problem", { detail: this.#problems[0] }));
          }
          this.#shown = frame;
          this.#updateState();
          continue;
        }
        break;
      }
    } finally {
      this.#busy = false;
      this.#updateState();
    }
  }

  /**
   * Loads the composition with the current config into a new frame beneath the one shown, waits
   * for ready() and seeks it to the target frame, then swaps it in: no blank frame in between.
   */
  async #loadFrame(): Promise<void> {
    const config = JSON.stringify(this.#config);
    this.#emit("loading");
    const problems: PlayerProblem[] = [];
    let source: PageSource | undefined;
    try {
      source = await this.#options.page(this.#config);
    } catch (error) {
      problems.push(problem("invalid-composition", errorText(error)));
    }
    const frame = document.createElement("iframe");
    frame.className = "composition loading";
    frame.title = "composition";
    if (source) {
      frame.width = String(source.width);
      frame.height = String(source.height);
      // Set before the frame is in the document, so that its only load is the composition's.
      if (source.srcdoc !== undefined) frame.srcdoc = source.srcdoc;
      else if (source.src !== undefined) frame.src = source.src;
    }
    const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
    this.#options.frames.prepend(frame);
    let api: ComposeApi | undefined;
    let info: CompositionInfo | undefined;
    // The frame this page was seeked to, none when it did not become ready. Not the target read
    // again: a seek asked for meanwhile moves that on, and #pump() then seeks the page there.
    let shown: number | undefined;
    if (source) {
      try {
        await withDeadline(loaded, READY_TIMEOUT_MS, () => {
          throw new NotReadyError("the composition page did not load", READY_TIMEOUT_MS);
        });
        api = (frame.contentWindow as RuntimeWindow | null)?.__compose;
        if (!api) throw new Error("the page runtime did not start in the composition frame");
        info = await withDeadline(api.ready(), READY_TIMEOUT_MS, () => {
          throw new NotReadyError("the composition did not become ready", READY_TIMEOUT_MS);
        });
      } catch (error) {
        problems.push(problem(error instanceof NotReadyError ? "not-ready" : "invalid-composition", errorText(error)));
      }
    }
    if (this.#wantReload) {
      // Superseded while loading (the config changed again): the next load replaces this one.
      frame.remove();
      return;
    }
    if (api && info) {
      try {
        info = await withDeadline(this.#options.prepareMedia(api, info, this.#fps), MEDIA_TIMEOUT_MS, () => {
          throw new NotReadyError("the media were not prepared", MEDIA_TIMEOUT_MS);
        });
      } catch (error) {
        problems.push(problem("media-error", `media: ${errorText(error)}`));
      }
      this.#sounds.setMedia(api.describeMedia());
      if (info.width !== source?.width || info.height !== source.height) {
        frame.width = String(info.width);
        frame.height = String(info.height);
      }
      this.#adoptInfo(info);
      for (const error of info.timingErrors ?? []) problems.push(problem("invalid-composition", `timing: ${error.message}`));
      shown = this.#target;
      try {
        this.#needsHistory ||= info.needsHistory;
        if (!(await this.#showFrame(api, shown))) {
          // It showed its history only once seeked: a fresh page plays it from 0.
          frame.remove();
          this.#wantReload = true;
          return;
        }
      } catch (error) {
        problems.push(problem("page-error", `seek to ${this.frameTime(shown).toFixed(3)} s failed: ${errorText(error)}`));
      }
    }
    for (const old of [...this.#options.frames.querySelectorAll("iframe")]) if (old !== frame) retire(old);
    frame.classList.remove("loading");
    if (this.#options.frameId) frame.id = this.#options.frameId;
    this.#frame = frame;
    this.#api = info ? api : undefined;
    this.#pageApi = api;
    this.#shown = shown;
    this.#loadedConfig = config;
    this.#problems = problems;
    this.#emit("load");
    this.#updateState();
  }

  #syncSound(): void {
    this.#sounds.sync(this.frameTime(this.#target), this.#playing, this.#playing ? (this.#api?.mediaGains() ?? {}) : {});
    this.#emit("sounds");
  }

  /**
   * Seeks frame after frame at the fps; when seeking is slower than that, plays slower, sounds
   * included. A sound heard behind the next frame's time (starting, or slowed by a busy machine)
   * holds the frames until it gets there, so that the frame shown is the one heard.
   */
  async #play(play: number): Promise<void> {
    const current = () => this.#playing && play === this.#plays;
    if (this.#target >= this.#totalFrames - 1) this.seek(0);
    await this.whenIdle();
    this.#clock = { at: performance.now(), frame: this.#target };
    const pace = new FramePace();
    this.#sounds.pace = 1;
    // The time frames spent held for the sound: the pace measures the page's seeks, not the sound's waits.
    let held = 0;
    let ended = false;
    // The frame this loop asked for last: a seek from elsewhere in between moves the sound instead.
    let asked = this.#target;
    while (current()) {
      await this.whenIdle();
      if (!current()) break;
      const followsOn = this.#target === asked;
      this.#sounds.pace = pace.frameShown(performance.now() - held, 1000 / (this.#fps * this.#rate));
      let next = this.#target + 1;
      if (next >= this.#totalFrames) {
        if (!this.loop) {
          ended = true;
          break;
        }
        next = 0;
        this.#clock = { at: performance.now(), frame: 0 };
      }
      const due = this.#clock.at + ((next - this.#clock.frame) * 1000) / (this.#fps * this.#rate);
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      else if (wait < -250) {
        // Far behind (slow seeks): carry on from here rather than rushing to catch up.
        this.#clock = { at: performance.now(), frame: next };
      }
      const holding = performance.now();
      if (followsOn && (await this.#waitForSound(this.frameTime(next), current))) {
        held += performance.now() - holding;
        this.#clock = { at: performance.now(), frame: next };
      }
      if (!current()) break;
      this.seek(next);
      asked = this.#target;
      this.#syncSound();
    }
    if (play !== this.#plays) return;
    this.pause();
    if (ended) this.#emit("ended");
  }

  /** Waits, at most SOUND_HOLD_MS, while the sound heard is behind `time`; whether it waited. */
  async #waitForSound(time: number, current: () => boolean): Promise<boolean> {
    const started = performance.now();
    for (let waited = false; ; waited = true) {
      const now = performance.now();
      if (this.#sounds.lag(time, now) === 0 || now - started >= SOUND_HOLD_MS || !current()) return waited;
      await sleep(SOUND_POLL_MS);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
