import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { plural, resolveWorkerCount } from "@compose/core";
import type { PreparedRender } from "../render/prepare-render.js";
import type { RenderFlags } from "../render/render-flags.js";
import { EXIT_INTERRUPTED, untilInterrupted } from "../render/interruptible.js";
import { UsageError } from "../usage-error.js";
import { createBatchReporter, createJsonBatchReporter } from "./batch-reporter.js";
import { planBatch } from "./plan-batch.js";
import { readRowsFile } from "./read-rows-file.js";
import { autoBatchConcurrency, runBatch } from "./run-batch.js";

export interface BatchCommand extends PreparedRender {
  flags: RenderFlags & { batch: string };
}

function concurrencyFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > 64)
    throw new UsageError(`--batch-concurrency must be a whole number from 1 to 64 (got ${text})`);
  return Number(text);
}

/**
 * `compose render --batch FILE`: every row read and checked before the first renders, then each
 * rendered as `compose render --variables '<row>'` would render it, in this process. Returns the
 * exit code: 0 when every row rendered, 1 when any failed, 130 when stopped.
 */
export async function runBatchCommand({ flags, entry, options, selection, settings }: BatchCommand): Promise<number> {
  if (options.docker) throw new UsageError("--batch renders in this process; --docker renders one composition a run: leave out one of them");
  const concurrency = concurrencyFlag(flags.batchConcurrency);
  const rowsFile = await readRowsFile(flags.batch);
  const plan = await planBatch({
    compositionFile: entry.file,
    name: entry.name,
    rowsFile,
    base: options.variables ?? {},
    template: flags.output,
    format: options.format,
    still: selection.still,
    strict: options.strictVariables,
  });
  const lanes = Math.min(plan.rows.length, concurrency ?? autoBatchConcurrency(resolveWorkerCount(options.workers, availableParallelism())));
  const quiet = flags.quiet ?? false;
  const report = flags.json
    ? createJsonBatchReporter(process.stdout)
    : createBatchReporter({ rows: plan.rows.length, quiet, interactive: Boolean(process.stdout.isTTY), out: process.stdout, err: process.stderr });
  if (!quiet && !flags.json) process.stdout.write(`Rendering ${plural(plan.rows.length, "row")} of ${entry.name}, ${lanes} at a time\n`);
  for (const row of plan.rows) for (const warning of row.warnings) report.event(row, { type: "warning", code: warning.code, message: warning.message });

  return untilInterrupted(async (signal) => {
    const outcomes = await runBatch({
      plan,
      compositionFile: entry.file,
      rowsFile: resolve(flags.batch),
      options,
      settings: { ...settings, frames: selection.frames, still: selection.still },
      concurrency: lanes,
      failFast: flags.failFast ?? false,
      resume: flags.resume ?? false,
      sharedFrames: flags.sharedFrames ?? true,
      signal,
      onEvent: report.event,
      onOutcome: report.outcome,
    });
    report.summary(outcomes, plan.rows, signal.aborted);
    if (signal.aborted) return EXIT_INTERRUPTED;
    return [...outcomes.values()].some((outcome) => outcome.status === "failed") || outcomes.size < plan.rows.length ? 1 : 0;
  });
}
