import { availableParallelism, freemem } from "node:os";
import { dirname } from "node:path";
import type { RenderOptions } from "@compose/core";
import type { RenderEvent, RenderRequest } from "@compose/renderer";
import { commonFolder, isDone, openManifest, projectDigest, rowKey } from "./batch-manifest.js";
import type { BatchPlan, PlannedRow } from "./plan-batch.js";

/** Memory one browser worker of a row may take at its peak, with its share of the encoder. */
const MEMORY_PER_WORKER = 1024 * 1024 * 1024;

/**
 * Rows rendered at once when --batch-concurrency is not given: as many as the cores take with
 * each row's own workers (a row alone leaves a core idle while it loads its page and finishes its
 * file), at most 4, and no more than free memory holds.
 */
export function autoBatchConcurrency(workersPerRow: number, cores = availableParallelism(), free = freemem()): number {
  return Math.max(1, Math.min(4, Math.floor(cores / workersPerRow), Math.floor(free / (workersPerRow * MEMORY_PER_WORKER))));
}

export type RowOutcome = { status: "done"; sizeBytes: number } | { status: "skipped" } | { status: "failed"; code: string; message: string };

export interface BatchRequest {
  plan: BatchPlan;
  compositionFile: string;
  /** The file the rows came from: not an input of the composition. */
  rowsFile: string;
  /** The options every row shares; each row adds its variables. */
  options: RenderOptions;
  /** What every row's render request carries besides (limits, capture settings, option naming). */
  settings: Omit<RenderRequest, "composition" | "output" | "options">;
  /** Rows rendered at once. */
  concurrency: number;
  failFast: boolean;
  resume: boolean;
  /** Whether a frame that paints as an earlier row's takes that row's image (SharedFrames). */
  sharedFrames: boolean;
  signal: AbortSignal;
  onEvent(row: PlannedRow, event: RenderEvent): void;
  onOutcome(row: PlannedRow, outcome: RowOutcome): void;
}

/**
 * Renders every row of a planned batch in this one process, `concurrency` rows at a time, each
 * exactly as a render of its values alone would. A row that fails is one failed row (with
 * --fail-fast the rows not yet finished are stopped); a stop leaves finished rows in place and no
 * partial file (each render stages its output). The manifest beside the outputs records each
 * finished row, so --resume skips rows already made from the same inputs.
 */
export async function runBatch(request: BatchRequest): Promise<Map<number, RowOutcome>> {
  const { plan, options, signal } = request;
  const { render, RenderError, KeptBrowsers, SharedFrames } = await import("@compose/renderer");
  // One set of browsers for the whole batch: a row takes them as its render would launch them.
  const browsers = new KeptBrowsers();
  // COMPOSE_VERIFY_SHARED_FRAMES=1 captures the shared frames too and fails a row whose image differs: the fingerprint's check.
  const shared = request.sharedFrames ? new SharedFrames(plan.rows.length, { verify: process.env.COMPOSE_VERIFY_SHARED_FRAMES === "1" }) : undefined;
  const folder = commonFolder(plan.rows.map((row) => row.output));
  const manifest = await openManifest(folder, request.resume);
  const project = await projectDigest(dirname(request.compositionFile), [folder, request.rowsFile]);
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  const outcomes = new Map<number, RowOutcome>();
  const finish = (row: PlannedRow, outcome: RowOutcome) => {
    outcomes.set(row.index, outcome);
    request.onOutcome(row, outcome);
    if (outcome.status === "failed" && request.failFast) stop.abort();
  };

  const renderRow = async (row: PlannedRow): Promise<void> => {
    const key = rowKey(project, options, row.values, row.output);
    if (row.errors.length > 0) {
      shared?.forgoRow();
      const message = row.errors.map((error) => error.message).join("; ");
      const problems = row.errors.map((error) => ({ code: error.code, message: error.message }));
      request.onEvent(row, { type: "failed", code: "invalid-variables", message, problems });
      finish(row, { status: "failed", code: "invalid-variables", message });
      await manifest.record({ row: row.index + 1, key, output: row.output, status: "failed", code: "invalid-variables" });
      return;
    }
    if (request.resume && (await isDone(manifest, row.index + 1, key, row.output))) {
      shared?.forgoRow();
      return finish(row, { status: "skipped" });
    }
    const sharedFrames = shared?.row();
    try {
      const finished = await render(
        { ...request.settings, composition: request.compositionFile, output: row.output, options: { ...options, variables: row.values } },
        { onEvent: (event) => request.onEvent(row, event), signal: stopped, browsers, sharedFrames },
      );
      await manifest.record({ row: row.index + 1, key, output: row.output, status: "done", sizeBytes: finished.sizeBytes });
      finish(row, { status: "done", sizeBytes: finished.sizeBytes });
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      // A row stopped because another failed (--fail-fast) or the batch was interrupted did not fail itself.
      if (error.code === "cancelled") return;
      await manifest.record({ row: row.index + 1, key, output: row.output, status: "failed", code: error.code });
      finish(row, { status: "failed", code: error.code, message: error.message });
    } finally {
      sharedFrames?.end();
    }
  };

  let next = 0;
  const lane = async () => {
    while (!stopped.aborted && next < plan.rows.length) await renderRow(plan.rows[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: request.concurrency }, lane));
  } finally {
    await browsers.closeAll();
  }
  return outcomes;
}
