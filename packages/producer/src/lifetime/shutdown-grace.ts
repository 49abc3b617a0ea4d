import { killChildProcesses } from "@compose/renderer";
import { within } from "../distributed/redis-connection.js";

/**
 * The end of a grace period kept for cancelled renders to close their browsers and encoders and
 * hand their tasks back (about half a second each here, a few seconds on a loaded machine), so
 * that a process told to stop within the grace does.
 */
const CANCEL_ALLOWANCE_MS = 3000;

/**
 * What the unwinding gets whatever the grace (0 included): a grace of 2 s or less cancels at once
 * and ends within 2 s.
 */
const SHORTEST_CANCEL_MS = 2000;

/**
 * How SIGTERM's grace is spent: running renders may finish during `finishMs`; then they are
 * cancelled and have `cancelMs` to unwind. The two add up to the grace (or to the shortest
 * unwinding, for a grace under it); at most half of a longer grace goes to the unwinding.
 */
export function graceWindows(graceMs: number): { finishMs: number; cancelMs: number } {
  const cancelMs = Math.max(SHORTEST_CANCEL_MS, Math.min(CANCEL_ALLOWANCE_MS, Math.floor(graceMs / 2)));
  return { finishMs: Math.max(0, graceMs - cancelMs), cancelMs };
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
