/*
 * The runtime's contract with the renderer, free of DOM types so Node code can import it:
 *   import type { ComposeBootConfig, ComposeApi } from "@compose/runtime";
 */
import type { DurationSource, TimingError } from "@compose/core";

/**
 * Passed to `window.__composeBoot(config)`, which the renderer appends to the bundle text it
 * injects with `page.evaluateOnNewDocument`, so it runs in every frame before the page's scripts.
 */
export interface ComposeBootConfig {
  /**
   * CLI `--variables` / `--variables-file`. Applied in the top-level frame only: a
   * sub-composition frame takes its overrides from its host's `data-variable-values`.
   */
  variables?: Record<string, unknown>;
  /**
   * Values for the top-level composition's sub-composition hosts, by their data-composition-id:
   * each takes the place of that host's data-variable-values, as if the author had written it.
   * Applied in the top-level frame only.
   */
  instances?: Record<string, Record<string, unknown>>;
  /** Seed of `Math.random`; its integer part modulo 2^32 is used. Default 0x5eed. */
  seed?: number;
}

export interface CompositionInfo {
  /** The composition element's data-width / data-height, in CSS pixels. */
  width: number;
  height: number;
  /**
   * Seconds: the composition element's data-duration, else the end of the timed element that
   * ends last, else the longest timeline registered in window.__timelines; undefined when none is
   * known (for instance only media without data-duration, before the renderer probed it).
   */
  duration: number | undefined;
  /** Which of those gave the duration. */
  durationSource: DurationSource | undefined;
  /** Starts that could not be resolved (unknown id, cycle...); those clips are never shown. */
  timingErrors: TimingError[];
  /**
   * Which of "html", "body" and "the composition element" paint a background (colour or image):
   * transparent formats show it instead of transparency.
   */
  paintedBackgrounds: string[];
  /** Graphics APIs the page asked for that the browser could not give ("WebGPU (navigator.gpu.requestAdapter() answered null)"). */
  unavailableGraphics: string[];
  /** See ComposeApi.needsHistory; as it stood when the page became ready. */
  needsHistory: boolean;
  /**
   * The composition element as laid out, in CSS pixels: it differs from width x height when CSS
   * sizes it otherwise; hidden when display, visibility or opacity hide it.
   */
  box: { width: number; height: number; hidden: boolean };
  /**
   * Animation the page defines that seeking never drives (a paused GSAP timeline not registered
   * in window.__timelines), in words with the fix; undefined when there is none.
   */
  idleAnimation?: string;
}

/** An uncaught error or unhandled rejection of a page script. */
export interface PageError {
  kind: "error" | "unhandledrejection";
  message: string;
  /**
   * Script path in the project (a URL when the script is elsewhere), line and column; empty and 0
   * for rejections, which carry no location.
   */
  source: string;
  line: number;
  column: number;
  stack?: string;
}

/** A resource of the page that failed to load (an element's `error` event, or a web font that could not load). */
export interface LoadFailure {
  type: "image" | "script" | "stylesheet" | "media" | "document" | "font" | "fetch" | "other";
  /** Path in the project (a URL when it is elsewhere); for a font, `font-family <name>`. */
  url: string;
  /** The reference as the document wrote it (an attribute's value; a font's family). */
  written: string;
  /** Path of the document that asked for it. */
  document: string;
}

/** A timed <video> or <audio>, as the page has it after its scripts ran. */
export interface MediaDescription {
  /** Names the element across frames: its index among this composition's media, prefixed by instance indexes (`2/0`). */
  key: string;
  kind: "video" | "audio";
  id: string | undefined;
  /** Absolute URL of the source; empty when the element has none. */
  src: string;
  /** Seconds in the describing composition's time; undefined when its start cannot be resolved yet. */
  start: number | undefined;
  /** Seconds it plays: data-duration, shortened to its instance's window; undefined: the source's natural length. */
  duration: number | undefined;
  /** The element's own data-duration; without one the renderer supplies the source's natural length. */
  declaredDuration: number | undefined;
  /** data-media-start: seconds into the source. */
  mediaStart: number;
  /** data-volume, 0-1. */
  volume: number;
  /** data-playback-rate, 0.1-5. */
  playbackRate: number;
  /** Whether its sound is mixed: <audio> unless muted; <video> with data-has-audio="true" and not muted. */
  audible: boolean;
}

/** One timed element of a composition, as a timeline draws it. */
export interface TimelineEntry {
  kind: "clip" | "video" | "audio" | "composition";
  /** The element's id; for a sub-composition instance, its data-composition-id. */
  label: string | undefined;
  /** data-track-index; undefined without one. */
  track: number | undefined;
  /** Seconds in the describing composition's time; undefined when the start cannot be resolved. */
  start: number | undefined;
  /** Seconds; undefined when it lasts until the composition ends (no data-duration, media not probed). */
  duration: number | undefined;
  /** Absolute URL of a media element's source or an instance's composition file. */
  src?: string;
  /** An instance's own timed elements, in the describing composition's time. */
  children?: TimelineEntry[];
}

/** What the renderer found out about one media element. */
export interface MediaPlan {
  key: string;
  /** Seconds of the element's timeline, when it has no data-duration. */
  naturalDuration?: number;
  /** Extracted frames of a video: `urlPattern` with `%06d` for the frame index from 0, at `fps`. */
  frames?: { urlPattern: string; count: number; fps: number };
  /**
   * A video without extracted frames that shows its own source instead, paused and seeked to its
   * local time at every seek (a player on a web server, which has no ffmpeg): the browser's
   * decoding, not render's frames.
   */
  seekSource?: boolean;
}

/** `window.__compose`, also reachable as the global `__compose`. */
export interface ComposeApi {
  /** Resolved values of this composition's variables; any key may be absent. */
  getVariables(): Partial<Record<string, unknown>>;
  /**
   * Brings the page to its state at `t` seconds of composition time and resolves once the frame
   * can be captured. Seeks run one after another in call order.
   */
  seek(t: number): Promise<void>;
  /**
   * Holds the render until `promise` settles: ready() waits for every promise handed over during
   * load (fetched data, a built model), and a seek for every one handed over during it. `label`
   * names it when it never settles (the ready timeout's message); a rejection fails the render.
   * Resolves as `promise` does.
   */
  waitFor<T>(promise: PromiseLike<T>, label?: string): Promise<T>;
  /** Labels of the promises handed to waitFor() that have not settled yet. */
  readonly waiting: readonly string[];
  /** onSeek handlers of the seek in progress (in this composition's frame) whose promise has not settled yet. */
  readonly pendingSeekHandlers: number;
  /** Registers `fn` to run on every seek; seek waits for the promise it returns. Returns an unsubscribe function. */
  onSeek(fn: (t: number) => void | Promise<void>): () => void;
  /** Resolves after the page's scripts, the load event, zero-delay timers, fonts and images. Rejects without a valid composition element. */
  ready(): Promise<CompositionInfo>;
  /** The timed media of this composition and its instances (after ready()). */
  describeMedia(): MediaDescription[];
  /** Every timed element of this composition and its instances, with starts resolved (after ready()). */
  describeTimeline(): TimelineEntry[];
  /** The gain of every timed media element now (its `volume`, 0 when muted), keyed as describeMedia() keys them. */
  mediaGains(): Record<string, number>;
  /** mediaGains() after every seek so far, with the seek's time: the volume envelopes of the mix. */
  gainLog(): Array<[number, Record<string, number>]>;
  /** Applies natural durations and extracted video frames; resolves to the updated description. */
  prepareMedia(plans: readonly MediaPlan[]): Promise<CompositionInfo>;
  /**
   * Mounts the sub-composition instance whose host has data-composition-id `id` again with
   * `values` as its data-variable-values, in a fresh frame that replaces the old one once ready;
   * the rest of the page stays. Resolves to the composition's updated description; the next seek
   * shows the instance at its time. A preview's edit of instance values, without a reload.
   */
  remountInstance(id: string, values: Record<string, unknown>): Promise<CompositionInfo>;
  /**
   * Whether the last seek may have changed what the frame shows. False only when nothing that
   * draws moved (no DOM mutation, timer, rAF callback, onSeek handler, Web Animation progress,
   * GSAP tween, image or font load, or sub-composition change), so the previous frame's pixels
   * can be reused.
   */
  readonly changed: boolean;
  /**
   * Whether this frame's state builds up from frame to frame, so a page must be played from 0
   * to show frame n: true once a requestAnimationFrame callback waited for the next frame here,
   * in a sub-composition instance or in a plain iframe, at ready() or after any seek. Timers need
   * no such replay: a seek carries the clock past each one in order. Stays true once true.
   */
  readonly needsHistory: boolean;
  /**
   * Whether a timed media element's gain may differ between two seeks: a script wrote a media
   * element's `volume` or `muted` since ready() (in this frame or an instance), or an onSeek
   * handler is registered, which could. False means the gains are those the page had at ready.
   */
  readonly volumesMayChange: boolean;
  /**
   * Resources that failed to load since injection: this frame's, then its same-origin child frames'.
   * Each one found, however late, fires a `compose:loadfailure` event on its frame's window and
   * every same-origin window above it.
   */
  readonly loadFailures: readonly LoadFailure[];
  /** Errors collected since injection (a copy): this frame's, then its same-origin child frames' (instances, iframes). */
  readonly errors: readonly PageError[];
}

export type ComposeBoot = (config?: ComposeBootConfig) => ComposeApi;
