/*
 * The runtime's contract with the renderer, free of DOM types so Node code can import it:
 *   import type { ComposeBootConfig, ComposeApi } from "@compose/runtime";
 */
import type { TimingError } from "@compose/core";

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
  /** Seed of `Math.random`; its integer part modulo 2^32 is used. Default 0x5eed. */
  seed?: number;
}

export interface CompositionInfo {
  /** The composition element's data-width / data-height, in CSS pixels. */
  width: number;
  height: number;
  /**
   * Seconds: the composition element's data-duration, else the end of the timed element that
   * ends last; undefined when neither is known (for instance only media without data-duration).
   */
  duration: number | undefined;
  /** Starts that could not be resolved (unknown id, cycle...); those clips stay visible. */
  timingErrors: TimingError[];
  /**
   * Which of "html", "body" and "the composition element" paint a background (colour or image):
   * transparent formats show it instead of transparency.
   */
  paintedBackgrounds: string[];
}

/** An uncaught error or unhandled rejection of a page script. */
export interface PageError {
  kind: "error" | "unhandledrejection";
  message: string;
  /** Script URL, line and column; empty and 0 for rejections, which carry no location. */
  source: string;
  line: number;
  column: number;
  stack?: string;
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
  /** Registers `fn` to run on every seek; seek waits for the promise it returns. Returns an unsubscribe function. */
  onSeek(fn: (t: number) => void | Promise<void>): () => void;
  /** Resolves after the page's scripts, the load event, zero-delay timers, fonts and images. Rejects without a valid composition element. */
  ready(): Promise<CompositionInfo>;
  /** Errors collected since injection (a copy). */
  readonly errors: readonly PageError[];
}

export type ComposeBoot = (config?: ComposeBootConfig) => ComposeApi;
