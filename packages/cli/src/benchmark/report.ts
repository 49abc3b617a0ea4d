import type { BenchmarkOutput } from "@compose/core";
import { plural } from "@compose/core/text";

/** What the benchmark found: the shape `compose benchmark --json` prints, declared in core. */
export type BenchmarkResult = BenchmarkOutput;

function memory(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

/** Columns right-aligned under their headings. */
function table(headings: string[], rows: string[][]): string[] {
  const widths = headings.map((heading, i) => Math.max(heading.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join("   ");
  return [line(headings), ...rows.map(line)];
}

export function formatBenchmarkText(result: BenchmarkResult): string {
  const { composition, slice, machine } = result;
  const lines = [
    `${composition.id} (${composition.width}x${composition.height}): ${slice.frames} frames (${slice.seconds.toFixed(2)} s at ${result.fps} fps), ${result.format}, ${result.quality} quality`,
    `machine: ${plural(machine.cores, "core")}, ${memory(machine.totalMemoryBytes)} memory`,
    "",
    ...table(
      ["workers", "frames/s", "wall time", "peak memory"],
      result.runs.map((run) => [String(run.workers), run.framesPerSecond.toFixed(1), `${(run.wallMs / 1000).toFixed(2)} s`, memory(run.peakMemoryBytes)]),
    ),
    "",
    `recommended: --workers ${result.recommended.workers} --max-concurrent-renders ${result.recommended.maxConcurrentRenders}`,
    ...result.recommended.reasons.map((reason) => `  ${reason}`),
    "  frames/s: capture rate once the browsers are up; wall time includes starting them.",
    "  Compositions under about 2 s (60 frames) render fastest with --workers 1.",
  ];
  return `${lines.join("\n")}\n`;
}

export function formatBenchmarkJson(result: BenchmarkResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
