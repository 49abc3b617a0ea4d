import type { RenderBatch } from "./render-batch.js";
import type { RenderJob } from "./render-job.js";

/**
 * Rows of ended batches kept in memory for GET /render/batch/{id} (and their requests for GET
 * /render/{id}). Older ended batches are let go (the state store still answers for them), so
 * memory does not grow with every batch; a batch under way never is, nor the latest that ended.
 */
export const RETAINED_ENDED_BATCH_ROWS = 20_000;

/** This server's batches, by id, and their rows' requests by request id. */
export class BatchStore {
  private readonly batches = new Map<string, RenderBatch>();
  private readonly rows = new Map<string, RenderJob>();
  private readonly ended: RenderBatch[] = [];
  private endedRows = 0;

  add(batch: RenderBatch): void {
    this.batches.set(batch.id, batch);
    for (const job of batch.rows) this.rows.set(job.id, job);
    batch.onEnd(() => this.retire(batch));
  }

  find(id: string): RenderBatch | undefined {
    return this.batches.get(id);
  }

  /** A request that is a row of a batch this server still keeps. */
  row(requestId: string): RenderJob | undefined {
    return this.rows.get(requestId);
  }

  private retire(batch: RenderBatch): void {
    this.ended.push(batch);
    this.endedRows += batch.rows.length;
    while (this.ended.length > 1 && this.endedRows > RETAINED_ENDED_BATCH_ROWS) {
      const forgotten = this.ended.shift()!;
      this.endedRows -= forgotten.rows.length;
      this.batches.delete(forgotten.id);
      for (const job of forgotten.rows) this.rows.delete(job.id);
    }
  }
}
