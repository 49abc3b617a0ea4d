import { basename } from "node:path";
import { BatchStore } from "../jobs/batch-store.js";
import { isFinalEvent } from "../jobs/job-events.js";
import { RenderBatch, type BatchRecord, type RenderBatchSpec } from "../jobs/render-batch.js";
import { RenderJob, type JobRecord, type RenderJobSpec } from "../jobs/render-job.js";
import { OutputClaims } from "../jobs/output-claims.js";
import type { RenderBackend } from "../queue/render-backend.js";
import type { RequestRecords } from "../state/request-records.js";
import type { WebhookDelivery, WebhookSender } from "../webhooks/webhook-sender.js";
import { HttpError } from "./errors.js";
import type { RequestContext } from "./render-request.js";

export interface RouteContext extends Omit<RequestContext, "webhooks"> {
  backend: RenderBackend;
  openApiDocument: object;
  /** The JSON Schema of `compose info --json`, served beside the OpenAPI document. */
  infoSchema: object;
  /** Rows one batch may have (default BATCH_ROW_LIMITS.default). */
  maxBatchRows?: number;
  /** The largest body of a batch request, in bytes (default BATCH_BODY_MIB_LIMITS.default MiB). */
  maxBatchBodyBytes?: number;
  /** Signs and sends webhooks; absent when the server has no webhook secret. */
  webhooks?: WebhookSender | undefined;
  /** Where requests, batches and idempotency keys outlive the process; absent, they live in memory only. */
  records?: RequestRecords | undefined;
}

/** What the routes share: the backend, the batches and the output names taken. */
export interface RouteState {
  context: RouteContext;
  batches: BatchStore;
  claims: OutputClaims;
}

export function routeState(context: RouteContext): RouteState {
  return { context, batches: new BatchStore(), claims: new OutputClaims() };
}

/** Sends the final status to the webhook when the job ends. */
function sendWhenEnded(job: RenderJob, webhook: WebhookDelivery | undefined): RenderJob {
  if (webhook && !job.terminal) {
    job.subscribe((event) => {
      if (isFinalEvent(event)) webhook.send(job.snapshot());
    });
  }
  return job;
}

/** A job for `spec`; with a webhook, the final status is sent there when it ends. */
export function newJob(state: RouteState, id: string, spec: RenderJobSpec): RenderJob {
  const webhook = spec.webhook && state.context.webhooks?.track(spec.webhook.url, "render");
  return sendWhenEnded(new RenderJob(id, spec, webhook ? { webhook } : {}), webhook);
}

/** A batch of `jobs`; with a webhook, the batch's status is sent there when its last row ends. */
function batchWithWebhook(batch: RenderBatch, webhook: WebhookDelivery | undefined): RenderBatch {
  if (webhook) batch.onEnd(() => webhook.send(batch.status()));
  return batch;
}

export function newBatch(state: RouteState, id: string, jobs: RenderJob[], spec: RenderBatchSpec & { webhook?: { url: string } }): RenderBatch {
  const { webhook: webhookRequest, ...batchSpec } = spec;
  const webhook = webhookRequest && state.context.webhooks?.track(webhookRequest.url, "batch");
  return batchWithWebhook(new RenderBatch(id, jobs, batchSpec, webhook), webhook);
}

/**
 * Submits the jobs through `submit` once their output names are theirs: a name a request under
 * way still writes is a 409, and the names are let go again when the submission is refused.
 * Accepted, they are kept in the state store from then on.
 */
export async function submitClaimed(state: RouteState, jobs: RenderJob[], submit: () => Promise<void>): Promise<void> {
  const conflict = state.claims.conflict(jobs);
  if (conflict) {
    const { job, holder } = conflict;
    const what = job.spec.batch ? `row ${job.spec.batch.row}'s output` : "outputName";
    throw new HttpError(
      409,
      "output-name-taken",
      `${what} ${basename(job.spec.output)} is being written by render ${holder.id}, which is ${holder.snapshot().state}: choose another name, or wait until that render has ended`,
      job.spec.batch ? "output" : "outputName",
    );
  }
  const release = state.claims.claim(jobs);
  try {
    await submit();
  } catch (error) {
    release();
    throw error;
  }
  state.context.records?.keep(jobs);
}

/** Keeps an accepted batch (after its rows) in the state store, and among this server's batches. */
export function keepBatch(state: RouteState, batch: RenderBatch): void {
  state.context.records?.keepBatch(batch);
  state.batches.add(batch);
}

/** A request by id: a batch's row, one the backend keeps, else one the state store kept. */
export async function findRequest(state: RouteState, id: string): Promise<RenderJob | undefined> {
  return state.batches.row(id) ?? (await state.context.backend.find(id)) ?? state.context.records?.job(id);
}

/** A batch by id: one this server keeps in memory, else one the state store kept. */
export function findBatchById(state: RouteState, id: string): RenderBatch | undefined {
  const kept = state.batches.find(id);
  if (kept) return kept;
  const record = state.context.records?.store.batch(id);
  const batch = record && state.context.records!.batch(record);
  if (batch) state.batches.add(batch);
  return batch;
}

/** A job as its record left it, wired to its webhook's delivery again. */
function restoredJob(state: RouteState, record: JobRecord): RenderJob {
  const webhook = state.context.records?.delivery(record.webhookId);
  return sendWhenEnded(RenderJob.fromRecord(record, webhook), webhook);
}

function restoredBatch(state: RouteState, record: BatchRecord, rows: Map<string, RenderJob>): RenderBatch | undefined {
  // The delivery first, so that the batch's status shows it live.
  const webhook = state.context.records!.delivery(record.webhookId);
  const batch = state.context.records!.batch(record, (id) => rows.get(id));
  return batch && batchWithWebhook(batch, webhook);
}

/**
 * After a restart: the webhooks that were being sent go on, and the requests that had not ended
 * (with the batches they are rows of) are handed to the backend again, in the order they were
 * accepted, before any new request is.
 */
export async function resumeRequests(state: RouteState): Promise<void> {
  const { records, backend } = state.context;
  if (!records) return;
  records.resumeDeliveries();
  const jobs = records.unfinishedRequests().map((record) => restoredJob(state, record));
  state.claims.claim(jobs);
  records.keep(jobs);
  const byId = new Map(jobs.map((job) => [job.id, job]));
  for (const record of records.unfinishedBatches()) {
    const batch = restoredBatch(state, record, byId);
    if (batch) keepBatch(state, batch);
  }
  await backend.resume(jobs);
}
