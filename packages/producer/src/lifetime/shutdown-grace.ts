import { killChildProcesses } from "@compose/renderer";
import { within } from "./within.js";

/**
 * The end of a grace period kept for cancelled renders to close their browsers and encoders and
 * for workers to hand their tasks back: about half a second here when idle, a few seconds on a
 * busy machine. A shorter grace (0 included) cancels at once and still gives them this.
 */
const CANCEL_WINDOW_MS = 5000;

/**
 * How SIGTERM's grace is spent: running renders may finish during `finishMs`; then they are
 * cancelled and have `cancelMs` to unwind. The two add up to the grace, or to the cancel window
 * for a shorter grace.
 */
export function graceWindows(graceMs: number): { finishMs: number; cancelMs: number } {
  return { finishMs: Math.max(0, graceMs - CANCEL_WINDOW_MS), cancelMs: CANCEL_WINDOW_MS };
}

/**
 * Runs `close` (which cancels what is left once `finishMs` is over) and ends it when the grace's
 * two windows are over, whatever it waits on: browsers and encoders still running then are
 * killed. Returns how many were.
 */
export async function closeWithinGrace(close: () => Promise<void>, graceMs: number): Promise<number> {
  const { finishMs, cancelMs } = graceWindows(graceMs);
  return (await within(close(), finishMs + cancelMs)) ? 0 : killChildProcesses();
}
