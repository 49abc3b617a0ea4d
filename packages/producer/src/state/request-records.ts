import { isFinalEvent } from "../jobs/job-events.js";
import { RenderBatch, type BatchRecord } from "../jobs/render-batch.js";
import { RenderJob, type JobRecord, type JobWebhook } from "../jobs/render-job.js";
import type { WebhookDelivery, WebhookSender } from "../webhooks/webhook-sender.js";
import type { StateStore } from "./state-store.js";

/**
 * The server's requests and batches as the state store keeps them: each saved when it is
 * accepted, when it starts and when it ends, and found there again after a restart, with its
 * webhook's delivery (one still being sent goes on).
 */
export class RequestRecords {
  /** Deliveries taken up again since the start, by id: their status is live. */
  private readonly deliveries = new Map<string, WebhookDelivery>();

  constructor(
    readonly store: StateStore,
    private readonly webhooks: WebhookSender | undefined,
  ) {}

  /** Jobs that changed in this turn of the event loop, saved together once it is over. */
  private readonly changed = new Set<RenderJob>();

  /** Saves the jobs now, and again each time one starts or ends. */
  keep(jobs: readonly RenderJob[]): void {
    this.store.saveRequests(jobs.map((job) => job.toRecord()));
    for (const job of jobs) {
      if (job.terminal) continue;
      const unsubscribe = job.subscribe((event) => {
        if (event.type !== "running" && !isFinalEvent(event)) return;
        this.saveSoon(job);
        if (isFinalEvent(event)) unsubscribe();
      });
    }
  }

  /**
   * Saves the job before anything else is done with what changed (a microtask), together with the
   * others that changed meanwhile: a batch's thousands of rows cancelled at once are one write to
   * the disk, not one each.
   */
  private saveSoon(job: RenderJob): void {
    if (this.changed.size === 0) {
      queueMicrotask(() => {
        const jobs = [...this.changed];
        this.changed.clear();
        this.store.saveRequests(jobs.map((each) => each.toRecord()));
      });
    }
    this.changed.add(job);
  }

  /** Saves the batch now, and again when it ends. */
  keepBatch(batch: RenderBatch): void {
    this.store.saveBatch(batch.toRecord());
    if (!batch.ended) batch.onEnd(() => this.store.saveBatch(batch.toRecord()));
  }

  /** Requests that had not ended when the server stopped, in the order they were accepted. */
  unfinishedRequests(): JobRecord[] {
    return this.store.unfinishedRequests();
  }

  unfinishedBatches(): BatchRecord[] {
    return this.store.unfinishedBatches();
  }

  /** A request as it was last saved (one that ended, which the queue no longer keeps). */
  job(id: string): RenderJob | undefined {
    const record = this.store.request(id);
    return record && RenderJob.fromRecord(record, this.webhook(record.webhookId));
  }

  /** A batch as it was last saved, its rows `row` gives (the live ones) or as they were saved. */
  batch(record: BatchRecord, row: (id: string) => RenderJob | undefined = () => undefined): RenderBatch | undefined {
    const rows = record.rows.map((id) => row(id) ?? this.job(id));
    if (rows.some((job) => job === undefined)) return undefined;
    const times = { createdAt: new Date(record.createdAt), finishedAt: record.finishedAt === null ? null : new Date(record.finishedAt) };
    return new RenderBatch(record.id, rows as RenderJob[], record.spec, this.webhook(record.webhookId), times);
  }

  /** The delivery of a webhook by its id, taken up again (retrying if it was being sent) the first time it is asked for. */
  delivery(id: string | null): WebhookDelivery | undefined {
    if (id === null || !this.webhooks) return undefined;
    const live = this.deliveries.get(id);
    if (live) return live;
    const record = this.store.delivery(id);
    if (!record) return undefined;
    const delivery = this.webhooks.restore(record);
    this.deliveries.set(id, delivery);
    return delivery;
  }

  /** Every delivery that was being sent when the server stopped goes on. */
  resumeDeliveries(): void {
    for (const id of this.store.pendingDeliveries()) this.delivery(id);
  }

  /** What a restored request or batch shows of its webhook: the live delivery, else its record's last status. */
  private webhook(id: string | null): JobWebhook | undefined {
    if (id === null) return undefined;
    const live = this.deliveries.get(id);
    if (live) return live;
    const record = this.store.delivery(id);
    return record && { id, status: () => ({ ...record.status }) };
  }
}
