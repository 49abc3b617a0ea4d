import { readdirSync, readFileSync } from "node:fs";

const PAGE_SIZE = 4096;

/** A /proc file's text, or undefined when the process has gone meanwhile. */
export function readProcFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** `root` and every process whose chain of parents reaches it (from /proc/<pid>/stat). */
export function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [root];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcFile(`/proc/${entry}/stat`);
    if (!stat) continue;
    // The command name is in parentheses and may hold spaces: the parent pid is the 2nd field after it.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    parentOf.set(Number(entry), ppid);
  }
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parentOf) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** Resident memory of a process tree in bytes: the sum of /proc/<pid>/statm's resident pages. */
export function treeResidentBytes(root: number = process.pid): number {
  let total = 0;
  let measured = false;
  for (const pid of processTree(root)) {
    const statm = readProcFile(`/proc/${pid}/statm`);
    if (!statm) continue;
    total += Number(statm.split(" ")[1]) * PAGE_SIZE;
    measured = true;
  }
  // Without /proc (not Linux) only this process can be measured.
  return measured ? total : process.memoryUsage().rss;
}

/** Samples the tree's resident memory until stopped; returns the peak. */
export function samplePeakMemory(root: number = process.pid, intervalMs = 100): { stop(): number } {
  let peak = treeResidentBytes(root);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeResidentBytes(root));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeResidentBytes(root));
    },
  };
}
