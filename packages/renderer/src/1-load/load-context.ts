import type { BrowserPool } from "../page/browser-pool.js";
import type { RenderEvent } from "@compose/core";

type Cleanup = () => Promise<void> | void;

/** What loading is given by the render it runs in: where events go, the browsers, the signal, and what to release at the end. */
export interface LoadContext {
  emit: (event: RenderEvent) => void;
  pool: BrowserPool;
  signal: AbortSignal | undefined;
  /** Run in reverse order when the render ends, however it ends. */
  cleanups: Cleanup[];
}
