import type { OutputFormat } from "@compose/core";
import type { BatchCounts, BatchFinishedEvent, BatchStatus } from "./batch-status.js";
import { isFinalEvent, type JobEvent } from "./job-events.js";
import type { RenderJob } from "./render-job.js";
import type { RequestMetadata, WebhookStatus } from "./request-fields.js";
import { RENDER_STATES, type RenderState } from "./render-status.js";

function tally(states: readonly RenderState[]): BatchCounts {
  const counts = Object.fromEntries(RENDER_STATES.map((state) => [state, 0])) as BatchCounts;
  for (const state of states) counts[state] += 1;
  return counts;
}

export interface RenderBatchSpec {
  composition: string;
  format: OutputFormat;
  metadata?: RequestMetadata;
}

/** What outlives the process of a batch: its spec, its times, its rows by request id and its webhook's delivery by id. */
export interface BatchRecord {
  id: string;
  spec: RenderBatchSpec;
  createdAt: string;
  finishedAt: string | null;
  rows: string[];
  webhookId: string | null;
}

/** How a batch delivers its webhook, as its status shows it. */
export interface BatchWebhook {
  readonly id: string;
  status(): WebhookStatus;
}

/**
 * A batch: one request (a RenderJob) per row, queued like any other. It keeps its rows, so its
 * status and its stream outlive the queue's memory of single requests, and it has ended once
 * every row has.
 */
export class RenderBatch {
  private readonly createdAt: Date;
  private finishedAt: Date | null = null;
  private unfinishedRows: number;
  private readonly endListeners: Array<() => void> = [];

  constructor(
    readonly id: string,
    readonly rows: readonly RenderJob[],
    readonly spec: RenderBatchSpec,
    private readonly webhook?: BatchWebhook,
    times: { createdAt?: Date; finishedAt?: Date | null } = {},
  ) {
    this.createdAt = times.createdAt ?? new Date();
    // A batch restored after a restart ended when its last row did, not now.
    if (times.finishedAt) this.finishedAt = times.finishedAt;
    this.unfinishedRows = rows.filter((job) => !job.terminal).length;
    for (const job of rows) {
      if (job.terminal) continue;
      const unsubscribe = job.subscribe((event) => {
        if (!isFinalEvent(event)) return;
        unsubscribe();
        if (--this.unfinishedRows === 0) this.end();
      });
    }
    if (this.unfinishedRows === 0 && !this.ended) this.end();
  }

  toRecord(): BatchRecord {
    return {
      id: this.id,
      spec: this.spec,
      createdAt: this.createdAt.toISOString(),
      finishedAt: this.finishedAt?.toISOString() ?? null,
      rows: this.rows.map((job) => job.id),
      webhookId: this.webhook?.id ?? null,
    };
  }

  get ended(): boolean {
    return this.finishedAt !== null;
  }

  /** Calls `fn` once every row has ended (at once if they have). */
  onEnd(fn: () => void): void {
    if (this.ended) fn();
    else this.endListeners.push(fn);
  }

  /** The rows that have not ended. */
  unfinished(): RenderJob[] {
    return this.rows.filter((job) => !job.terminal);
  }

  counts(): BatchCounts {
    return tally(this.rows.map((job) => job.snapshot().state));
  }

  status(): BatchStatus {
    const rows = this.rows.map((job, index) => {
      const { requestId, state, position, outputName, output, error, metadata } = job.snapshot();
      return { row: index + 1, requestId, state, position, outputName, output: output?.url ?? null, error, metadata };
    });
    return {
      batchId: this.id,
      state: this.ended ? "ended" : "active",
      composition: this.spec.composition,
      format: this.spec.format,
      total: this.rows.length,
      counts: tally(rows.map((row) => row.state)),
      createdAt: this.createdAt.toISOString(),
      finishedAt: this.finishedAt?.toISOString() ?? null,
      metadata: this.spec.metadata ?? null,
      webhook: this.webhook?.status() ?? null,
      rows,
    };
  }

  /**
   * Tells `listener` every row's events, each carrying its `row`, from each row's start, then
   * `batch-finished` once the last row's last event has been told. A row's place in the queue is
   * told once, when it is first heard: the places of waiting rows change each time any row
   * starts, and a stream of every change would be one event per waiting row each time.
   * Returns the function that stops listening.
   */
  follow(listener: (event: JobEvent | BatchFinishedEvent) => void): () => void {
    let unfinished = this.rows.length;
    let stopped = false;
    const unsubscribes = this.rows.map((job) => {
      let placed = false;
      return job.follow((event) => {
        if (stopped || (event.type === "queued" && placed)) return;
        placed ||= event.type === "queued";
        listener(event);
        if (isFinalEvent(event) && --unfinished === 0) listener({ type: "batch-finished", batchId: this.id, total: this.rows.length, counts: this.counts() });
      });
    });
    return () => {
      stopped = true;
      unsubscribes.forEach((unsubscribe) => unsubscribe());
    };
  }

  private end(): void {
    this.finishedAt = new Date();
    for (const fn of this.endListeners.splice(0)) fn();
  }
}
