import { processTree, readProcFile } from "../../packages/cli/src/benchmark/process-memory.js";

const CLOCK_TICKS_PER_SECOND = 100;

/** Fields of /proc/PID/stat after the command name (which may hold spaces): index 0 is field 3. */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

export type Role = "browser" | "encoder" | "node";

export interface ProcessSample {
  role: Role;
  cpuSeconds: number;
  /** Proportional set size: shared pages divided among the processes sharing them. */
  pssBytes: number;
}

function roleOf(pid: number): Role {
  const cmdline = readProcFile(`/proc/${pid}/cmdline`) ?? "";
  if (cmdline.includes("chromium")) return "browser";
  if (cmdline.includes("ffmpeg")) return "encoder";
  return "node";
}

function sample(pid: number): ProcessSample | undefined {
  const stat = readProcFile(`/proc/${pid}/stat`);
  const rollup = readProcFile(`/proc/${pid}/smaps_rollup`);
  if (!stat) return undefined;
  const fields = statFields(stat);
  const pss = rollup ? Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024 : 0;
  return { role: roleOf(pid), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND, pssBytes: pss };
}

/**
 * Samples a process tree until stopped: the peak of its summed PSS (RSS would count the pages
 * Chromium's processes share once per process), and the last CPU time seen of every process,
 * by role.
 */
export class TreeMonitor {
  private peak = 0;
  private readonly cpu = new Map<number, ProcessSample>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: number,
    intervalMs = 100,
  ) {
    this.timer = setInterval(() => this.tick(), intervalMs);
  }

  private tick(): void {
    let total = 0;
    for (const pid of processTree(this.root)) {
      const found = sample(pid);
      if (!found) continue;
      total += found.pssBytes;
      // An exited process not yet reaped has no command line: it keeps the role it was seen with.
      const known = this.cpu.get(pid)?.role;
      this.cpu.set(pid, known && known !== "node" ? { ...found, role: known } : found);
    }
    this.peak = Math.max(this.peak, total);
  }

  stop(): { peakBytes: number; cpuByRole: Record<Role, number> } {
    clearInterval(this.timer);
    const cpuByRole: Record<Role, number> = { browser: 0, encoder: 0, node: 0 };
    for (const { role, cpuSeconds } of this.cpu.values()) cpuByRole[role] += cpuSeconds;
    return { peakBytes: this.peak, cpuByRole };
  }
}
