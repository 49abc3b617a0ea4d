import { killChildProcesses } from "@compose/renderer";
import { within } from "../distributed/redis-connection.js";

/**
 * The end of a grace period kept for cancelled renders to close their browsers and encoders
 * (about half a second each here, a few seconds on a loaded machine), so that a process told
 * to stop within the grace does.
 */
const CANCEL_ALLOWANCE_MS = 3000;

/**
 * What a shorter grace (0 included) still gets: time for cancelled renders to tell their clients
 * and remove their staging.
 */
const SHORTEST_STOP_MS = 1000;

/**
 * How SIGTERM's grace is spent: running renders may finish during `finishMs`; then they are
 * cancelled and have `cancelMs` to unwind. The two add up to the grace; at most half of it goes
 * to the unwinding.
 */
export function graceWindows(graceMs: number): { finishMs: number; cancelMs: number } {
  const cancelMs = Math.min(CANCEL_ALLOWANCE_MS, Math.floor(graceMs / 2));
  return { finishMs: graceMs - cancelMs, cancelMs };
}

/**
 * Runs `close` (which cancels what is left once `finishMs` is over) and ends it at the grace (a
 * second at least) whatever it waits on: browsers and encoders still running then are killed. Returns how many
 * were.
 */
export async function closeWithinGrace(close: () => Promise<void>, graceMs: number): Promise<number> {
  return (await within(close(), Math.max(graceMs, SHORTEST_STOP_MS))) ? 0 : killChildProcesses();
}
