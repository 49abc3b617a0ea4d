import { printable } from "@compose/core";
import { BrowserPool, type KeptBrowsers } from "../page/browser-pool.js";
import type { LoadContext } from "../1-load/load-context.js";
import type { RowFrames } from "../3-capture/shared-frames.js";
import type { RenderEvent } from "@compose/core";
import { fullDiskError } from "../common/disk-full.js";
import { withDeadline } from "../common/deadline.js";
import { cancelledError, RenderError } from "../common/render-error.js";
import { tallyWarnings } from "../common/warning-tally.js";

export interface RenderHooks {
  onEvent?: (event: RenderEvent) => void;
  signal?: AbortSignal;
  /**
   * Browsers shared by renders that run one after another (a batch's rows): taken from here and
   * handed back when the render succeeds, instead of launched and closed for each render.
   */
  browsers?: KeptBrowsers;
  /** A batch row's view of the frames earlier rows captured: a frame that paints as theirs did is not captured again. */
  sharedFrames?: RowFrames;
}

/** What a render holds while it runs; everything in it is released when the render ends. */
export type RenderContext = LoadContext;

function explainFailure(error: unknown, pool: BrowserPool, signal: AbortSignal | undefined): RenderError {
  if (signal?.aborted) return cancelledError();
  if (error instanceof RenderError) return error;
  if (pool.crashed) return new RenderError("browser-crashed", "the browser exited unexpectedly during the render", { cause: error });
  const { code, path } = error as NodeJS.ErrnoException;
  const full = typeof code === "string" ? fullDiskError(code, path) : undefined;
  if (full) return full;
  const message = error instanceof Error ? error.message : String(error);
  // What no step explained is ours, not the encoder's: the code says so, and the cause goes with it for reports.
  return new RenderError("internal-error", message.split("\n")[0] ?? message, { cause: error });
}

/** Warnings and failures carry text from the composition and its user: shown as one printable line. */
function printableEvents(onEvent: (event: RenderEvent) => void): (event: RenderEvent) => void {
  return (event) => onEvent(event.type === "warning" || event.type === "failed" ? { ...event, message: printable(event.message) } : event);
}

/**
 * Runs a render, or another step that uses browsers: cancellation kills them at once, a failure
 * becomes one RenderError and a `failed` event, and browsers and cleanups are released whatever
 * happens.
 */
export async function withRenderContext<T>(hooks: RenderHooks, step: (context: RenderContext) => Promise<T>): Promise<T> {
  const context: RenderContext = {
    emit: tallyWarnings(printableEvents(hooks.onEvent ?? (() => undefined))),
    pool: new BrowserPool(hooks.browsers),
    signal: hooks.signal,
    cleanups: [],
  };
  // Cancellation ends the render at once whatever its step waits for; what that step still holds
  // when it ends is released then.
  let cancel: () => void = () => undefined;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => reject(cancelledError());
  });
  cancelled.catch(() => undefined);
  const onAbort = () => {
    context.pool.killAll();
    cancel();
  };
  if (hooks.signal?.aborted) onAbort();
  hooks.signal?.addEventListener("abort", onAbort, { once: true });
  const running = step(context);
  try {
    return await Promise.race([running, cancelled]);
  } catch (error) {
    context.pool.forgoReuse();
    const failure = explainFailure(error, context.pool, hooks.signal);
    context.emit({ type: "failed", code: failure.code, message: failure.message, problems: failure.problems });
    throw failure;
  } finally {
    hooks.signal?.removeEventListener("abort", onAbort);
    // A cancelled step usually unwinds at once (its browsers were killed); it is given a moment,
    // so that what it opens is released here rather than after its caller has gone.
    await withDeadline(
      running.then(
        () => undefined,
        () => undefined,
      ),
      CANCEL_UNWIND_MS,
      () => undefined,
    );
    await release(context);
    void running.then(
      () => release(context),
      () => release(context),
    );
  }
}

/** How long a cancelled step may take to unwind before the render ends without it. */
const CANCEL_UNWIND_MS = 3000;

/** Closes the browsers and runs the cleanups registered so far, each once. */
async function release(context: RenderContext): Promise<void> {
  await context.pool.closeAll();
  for (const cleanup of context.cleanups.splice(0).reverse()) await cleanup();
}
