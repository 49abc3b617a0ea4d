import type { Command } from "commander";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { MAX_WORKERS, outputExtension, RENDER_OPTIONS, type RenderOptions } from "@compose/core/options";
import { plural } from "@compose/core/text";
import type { RenderEvent, RenderFinishedEvent, RenderStartedEvent } from "@compose/renderer";
import { samplePeakMemory } from "../benchmark/process-memory.js";
import { candidateWorkerCounts, recommend, type BenchmarkRun } from "../benchmark/recommend.js";
import { formatBenchmarkJson, formatBenchmarkText, type BenchmarkResult } from "../benchmark/report.js";
import { describeDefault, flagOptions } from "../render/flag-options.js";
import { EXIT_INTERRUPTED } from "../render/interruptible.js";
import { renderOptionsFromFlags, renderSettingsFromEnvironment, type RenderFlags } from "../render/render-flags.js";
import { UsageError } from "../usage-error.js";

const DEFAULT_SECONDS = 2;
const MAX_SECONDS = 60;

interface BenchmarkFlags extends Pick<RenderFlags, "fps" | "format" | "quality"> {
  seconds?: string;
  workers?: string;
  json?: boolean;
}

function parseSeconds(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SECONDS;
  const seconds = Number(text);
  if (text.trim() === "" || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_SECONDS) {
    throw new UsageError(`--seconds must be a number of seconds above 0 and at most ${MAX_SECONDS} (got ${text})`);
  }
  return seconds;
}

function parseWorkerList(text: string | undefined, cores: number): number[] {
  if (text === undefined) return candidateWorkerCounts(cores);
  const items = text.split(",").map((item) => item.trim());
  const counts = items.map(Number);
  if (items.some((item) => !/^\d+$/.test(item)) || counts.some((n) => n < 1 || n > MAX_WORKERS)) {
    throw new UsageError(`--workers must be a comma-separated list of integers from 1 to ${MAX_WORKERS}, such as 1,2,4 (got ${text})`);
  }
  return [...new Set(counts)].sort((a, b) => a - b);
}

export function registerBenchmark(program: Command): void {
  const command = program
    .command("benchmark")
    .description("Render a short slice with 1 to min(8, cores) workers; recommend --workers and --max-concurrent-renders.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--seconds <s>", `length of the slice rendered from the start (default: ${DEFAULT_SECONDS})`)
    .option("--workers <list>", "worker counts to try, e.g. 1,2,4 (default: 1 to min(8, cores))");
  // The slice has no output path to take its format from: the declared default is the default.
  const renderOptions = [...flagOptions("fps"), ...flagOptions("format", describeDefault(RENDER_OPTIONS.format.default)), ...flagOptions("quality")];
  for (const option of renderOptions) command.addOption(option);
  command.option("--json", "print the results as JSON").action(async (pathArg: string, flags: BenchmarkFlags) => {
    const cores = availableParallelism();
    const seconds = parseSeconds(flags.seconds);
    const workerCounts = parseWorkerList(flags.workers, cores);
    const base = await renderOptionsFromFlags({ fps: flags.fps, format: flags.format, quality: flags.quality });
    const settings = renderSettingsFromEnvironment(process.env);
    // Loaded once the flags are checked, as the renderer once the composition is found: a refusal needs neither.
    const { resolveCompositionEntry } = await import("../project/resolve-composition-entry.js");
    const entry = await resolveCompositionEntry(pathArg);
    const { render, RenderError } = await import("@compose/renderer");

    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once("SIGINT", interrupt);
    process.once("SIGTERM", interrupt);
    const outputDir = await mkdtemp(join(tmpdir(), "compose-benchmark-"));
    const runs: BenchmarkRun[] = [];
    const warnings = new Set<string>();
    let started: RenderStartedEvent | undefined;
    const requested = { start: 0, end: Math.max(1, Math.round(seconds * base.fps)) };
    try {
      for (const workers of workerCounts) {
        const options: RenderOptions = { ...base, workers };
        process.stderr.write(`compose benchmark: ${plural(workers, "worker")}... `);
        const output = join(outputDir, `workers-${workers}${outputExtension(options.format)}`);
        const memory = samplePeakMemory();
        let finished: RenderFinishedEvent;
        let peak: number;
        try {
          finished = await render(
            { composition: entry.file, output, options, frames: requested, ...settings },
            {
              signal: controller.signal,
              onEvent: (event: RenderEvent) => {
                if (event.type === "started") started = event;
                if (event.type === "warning") warnings.add(`${event.code}: ${event.message}`);
              },
            },
          );
        } finally {
          // Sampling stops whatever happened.
          peak = memory.stop();
        }
        runs.push({
          workers,
          frames: finished.frames,
          framesPerSecond: finished.frames / Math.max(0.001, finished.captureMs / 1000),
          wallMs: finished.elapsedMs,
          captureMs: finished.captureMs,
          peakMemoryBytes: peak,
        });
        process.stderr.write(`${runs.at(-1)!.framesPerSecond.toFixed(1)} frames/s, ${(finished.elapsedMs / 1000).toFixed(2)} s\n`);
        await rm(output, { recursive: true, force: true });
      }
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      process.stderr.write(`\nerror: ${error.message}\n`);
      process.exitCode = error.code === "cancelled" ? EXIT_INTERRUPTED : 1;
      return;
    } finally {
      process.off("SIGINT", interrupt);
      process.off("SIGTERM", interrupt);
      await rm(outputDir, { recursive: true, force: true });
    }
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);

    const machine = { cores, totalMemoryBytes: totalmem() };
    const frames = runs[0]?.frames ?? 0;
    const result: BenchmarkResult = {
      composition: { id: started?.composition ?? entry.name, file: entry.file, width: started?.width ?? 0, height: started?.height ?? 0 },
      slice: { startFrame: requested.start, endFrame: requested.start + frames, frames, seconds: frames / base.fps },
      fps: base.fps,
      format: base.format,
      quality: base.quality,
      machine,
      runs,
      recommended: recommend(runs, machine),
    };
    process.stdout.write(flags.json ? formatBenchmarkJson(result) : formatBenchmarkText(result));
  });
}
