import cliProgress from "cli-progress";
import { plural, rowName } from "@compose/core";
import type { RenderEvent } from "@compose/renderer";
import { writeJsonEvent } from "../render/json-events.js";
import { displayPath, formatBytes } from "../render/render-reporter.js";
import type { PlannedRow } from "./plan-batch.js";
import type { RowOutcome } from "./run-batch.js";

export interface BatchReporterOptions {
  rows: number;
  quiet: boolean;
  /** A live bar on a terminal; a plain line a finished row in logs and pipes. */
  interactive: boolean;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  now?: () => number;
}

export interface BatchReporter {
  event(row: PlannedRow, event: RenderEvent): void;
  outcome(row: PlannedRow, outcome: RowOutcome): void;
  /** The last lines: how many rows rendered, were skipped, failed or never ran, and each failure's cause. */
  summary(outcomes: ReadonlyMap<number, RowOutcome>, rows: readonly PlannedRow[], interrupted: boolean): void;
}

function clock(ms: number): string {
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/**
 * Prints a batch as a person reads it: a line a finished row (its output, duration, size and
 * time), warnings and failures named by row, and a bar of rows done with frames per second and
 * the time left.
 */
export function createBatchReporter(options: BatchReporterOptions): BatchReporter {
  const { out, err } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const rowStarted = new Map<number, number>();
  const capturing = new Map<number, number>();
  let framesDone = 0;
  let rowsDone = 0;
  const multi =
    options.interactive && !options.quiet
      ? new cliProgress.MultiBar(
          { format: "  {bar} {value}/{total} rows | {rate} fps | {left} left", stream: out, hideCursor: true, clearOnComplete: true },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  const bar = multi?.create(options.rows, 0, { rate: "0.0", left: "-" });
  const write = (stream: NodeJS.WritableStream, line: string) => (multi && stream === out ? multi.log(`${line}\n`) : stream.write(`${line}\n`));

  const rate = () => {
    const frames = framesDone + [...capturing.values()].reduce((sum, frames) => sum + frames, 0);
    return (frames / Math.max(0.001, (now() - startedAt) / 1000)).toFixed(1);
  };
  const left = () => (rowsDone === 0 ? "-" : clock(((now() - startedAt) / rowsDone) * (options.rows - rowsDone)));

  return {
    event(row, event) {
      const name = rowName(row.index + 1, row.line);
      switch (event.type) {
        case "started":
          rowStarted.set(row.index, now());
          return;
        case "progress":
          if (event.stage === "capture") capturing.set(row.index, event.frame);
          bar?.update(rowsDone, { rate: rate(), left: left() });
          return;
        case "warning":
          multi?.log("");
          err.write(`warning: ${name}: [${event.code}] ${event.message}\n`);
          return;
        case "finished":
          capturing.delete(row.index);
          framesDone += event.frames;
          return;
        case "failed":
          capturing.delete(row.index);
          return;
      }
    },
    outcome(row, outcome) {
      const name = rowName(row.index + 1, row.line);
      rowsDone++;
      if (outcome.status === "failed") {
        err.write(`error: ${name}: [${outcome.code}] ${outcome.message}\n`);
      } else if (options.quiet) {
        if (outcome.status === "done") out.write(`${displayPath(row.output)}\n`);
      } else if (outcome.status === "skipped") {
        write(out, `${name}: ${displayPath(row.output)} already made from the same inputs, skipped`);
      } else {
        const took = (now() - (rowStarted.get(row.index) ?? startedAt)) / 1000;
        write(out, `${name}: ${displayPath(row.output)} (${formatBytes(outcome.sizeBytes)}) in ${took.toFixed(1)} s`);
      }
      bar?.update(rowsDone, { rate: rate(), left: left() });
      if (!multi && !options.quiet && rowsDone < options.rows && outcome.status !== "skipped") {
        write(out, `  ${rowsDone}/${options.rows} rows, ${rate()} fps, ${left()} left`);
      }
    },
    summary(outcomes, rows, interrupted) {
      multi?.stop();
      const count = (status: RowOutcome["status"]) => [...outcomes.values()].filter((outcome) => outcome.status === status).length;
      const failed = rows.filter((row) => outcomes.get(row.index)?.status === "failed");
      const notRun = rows.length - outcomes.size;
      const parts = [`${count("done")} of ${plural(rows.length, "row")} rendered in ${((now() - startedAt) / 1000).toFixed(1)} s`];
      if (count("skipped") > 0) parts.push(`${count("skipped")} skipped as already made`);
      if (failed.length > 0) parts.push(`${failed.length} failed`);
      if (notRun > 0) parts.push(`${notRun} not rendered${interrupted ? " (stopped)" : " (--fail-fast)"}`);
      (failed.length > 0 || notRun > 0 ? err : out).write(`Batch: ${parts.join(", ")}\n`);
      for (const row of failed) {
        const outcome = outcomes.get(row.index) as Extract<RowOutcome, { status: "failed" }>;
        err.write(`  ${rowName(row.index + 1, row.line)}: [${outcome.code}] ${outcome.message}\n`);
      }
    },
  };
}

/**
 * A batch as JSON lines on `out` (--json): every row's events with its `row`, and a `warning` of
 * code `skipped` for a row --resume found already made. Nothing else is written there.
 */
export function createJsonBatchReporter(out: NodeJS.WritableStream): BatchReporter {
  return {
    event: (row, event) => writeJsonEvent(out, event, { row: row.index + 1 }),
    outcome(row, outcome) {
      if (outcome.status !== "skipped") return;
      writeJsonEvent(out, { type: "warning", code: "skipped", message: `${row.output} was already made from the same inputs` }, { row: row.index + 1 });
    },
    summary: () => undefined,
  };
}
