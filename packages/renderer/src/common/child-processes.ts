import type { ChildProcess } from "node:child_process";

/** The browsers and encoders this process started that are still running. */
const running = new Set<ChildProcess>();

/** Keeps `child` in the set until it exits, so a process that must stop now can end it. */
export function trackChild(child: ChildProcess): ChildProcess {
  if (child.exitCode !== null || child.signalCode !== null) return child;
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/**
 * Kills every browser and encoder still running, for a process that must end at once (a
 * shutdown whose grace is over): whatever their renders were doing, nothing outlives it.
 */
export function killChildProcesses(): number {
  const count = running.size;
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  return count;
}
