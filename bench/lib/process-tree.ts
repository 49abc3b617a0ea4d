import { readdirSync, readFileSync } from "node:fs";

const PAGE_SIZE = 4096;
const CLOCK_TICKS_PER_SECOND = 100;

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Field n (1-based, as in proc(5)) of /proc/PID/stat; the command name may hold spaces, so count after it. */
function statField(stat: string, n: number): number {
  const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(afterName[n - 3]);
}

/** Every process whose ancestor chain reaches `root`, including root itself. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOr(`/proc/${entry}/stat`);
    if (stat) parents.set(Number(entry), statField(stat, 4));
  }
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** Resident memory of a process tree in bytes. */
export function treeRss(root: number): number {
  return descendants(root).reduce((sum, pid) => {
    const statm = readOr(`/proc/${pid}/statm`);
    return sum + (statm ? Number(statm.split(" ")[1]) * PAGE_SIZE : 0);
  }, 0);
}

/** CPU seconds of this process's children that have been waited for (which includes their own children). */
export function reapedChildrenCpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  return (statField(stat, 16) + statField(stat, 17)) / CLOCK_TICKS_PER_SECOND;
}

/** Samples the peak resident memory of a process tree until stopped. */
export function watchPeakRss(root: number, intervalMs = 50): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(root));
  }, intervalMs);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
