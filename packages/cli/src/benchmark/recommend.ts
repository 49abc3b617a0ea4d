import type { BenchmarkRecommendation, BenchmarkRun } from "@compose/core";
import { MAX_WORKERS } from "@compose/core/options";
import { plural } from "@compose/core/text";

/** One worker count's run: as `compose benchmark --json` prints it, declared in core. */
export type { BenchmarkRun };

/** A run within this share of the fastest counts as fast; fewer workers then win (less memory, more headroom). */
const NEAR_BEST = 0.9;
/** Leave this share of memory to everything else. */
const MEMORY_SHARE = 0.75;
/** Worker rule: one worker on machines with 4 GB of RAM or less. */
const SMALL_MACHINE_BYTES = 4 * 1024 ** 3;

/** Worker counts a benchmark tries by default: 1 up to min(8, cores). */
export function candidateWorkerCounts(cores: number): number[] {
  const most = Math.max(1, Math.min(MAX_WORKERS, cores));
  return Array.from({ length: most }, (_, i) => i + 1);
}

/**
 * Concurrency limit guidance: 4 cores -> 1, 8 -> 2, 16 -> 3-4, 32 -> 5-6; when in doubt, 1.
 * Between rows the lower row applies; beyond 32 cores the 32-core row (no guidance, so stay with it).
 */
export function concurrencyRange(cores: number): [number, number] {
  if (cores >= 32) return [5, 6];
  if (cores >= 16) return [3, 4];
  if (cores >= 8) return [2, 2];
  return [1, 1];
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

export function recommend(runs: BenchmarkRun[], machine: { cores: number; totalMemoryBytes: number }): BenchmarkRecommendation {
  const reasons: string[] = [];
  const budget = machine.totalMemoryBytes * MEMORY_SHARE;
  let workers = 1;
  if (runs.length === 0) {
    reasons.push("--workers 1: nothing was measured");
  } else if (machine.totalMemoryBytes <= SMALL_MACHINE_BYTES) {
    reasons.push(`--workers 1: ${gib(machine.totalMemoryBytes)} of memory (4 GB or less: one worker)`);
  } else {
    const fitting = runs.filter((run) => run.peakMemoryBytes <= budget);
    const pool = fitting.length > 0 ? fitting : runs.filter((run) => run.workers === 1);
    const best = Math.max(...pool.map((run) => run.framesPerSecond));
    const chosen = [...pool].sort((a, b) => a.workers - b.workers).find((run) => run.framesPerSecond >= best * NEAR_BEST) ?? pool[0]!;
    workers = chosen.workers;
    const fastest = pool.find((run) => run.framesPerSecond === best)!;
    reasons.push(
      chosen === fastest
        ? `--workers ${workers}: the fastest capture measured (${chosen.framesPerSecond.toFixed(1)} fps)`
        : `--workers ${workers}: ${chosen.framesPerSecond.toFixed(1)} fps, within ${Math.round((1 - NEAR_BEST) * 100)}% of the fastest (${best.toFixed(1)} fps with ${fastest.workers}) with fewer browsers`,
    );
    if (fitting.length < runs.length)
      reasons.push(`runs whose peak memory exceeded ${Math.round(MEMORY_SHARE * 100)}% of ${gib(machine.totalMemoryBytes)} were left out`);
  }

  const range = concurrencyRange(machine.cores);
  const perRender = runs.find((run) => run.workers === workers)?.peakMemoryBytes ?? 0;
  let concurrent = range[1];
  while (concurrent > 1 && concurrent * perRender > budget) concurrent--;
  const guidance = range[0] === range[1] ? `${range[0]}` : `${range[0]}-${range[1]}`;
  reasons.push(
    `--max-concurrent-renders ${concurrent}: ${plural(machine.cores, "core")} (guidance ${guidance}: 4 cores -> 1, 8 -> 2, 16 -> 3-4, 32 -> 5-6)` +
      (concurrent < range[1] && perRender > 0 ? `, limited by memory (${gib(perRender)} per render)` : ""),
  );
  return { workers, maxConcurrentRenders: concurrent, concurrentRange: range, reasons };
}
