import { basename } from "node:path";
import { BatchStore } from "../jobs/batch-store.js";
import { isFinalEvent } from "../jobs/job-events.js";
import { RenderJob, type RenderJobSpec } from "../jobs/render-job.js";
import { OutputClaims } from "../jobs/output-claims.js";
import type { RenderBackend } from "../queue/render-backend.js";
import type { WebhookSender } from "../webhooks/webhook-sender.js";
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

/** A job for `spec`; with a webhook, the final status is sent there when it ends. */
export function newJob(state: RouteState, id: string, spec: RenderJobSpec): RenderJob {
  const webhook = spec.webhook && state.context.webhooks?.track(spec.webhook.url, "render");
  const job = new RenderJob(id, spec, webhook ? { webhook } : {});
  if (webhook) {
    job.subscribe((event) => {
      if (isFinalEvent(event)) webhook.send(job.snapshot());
    });
  }
  return job;
}

/**
 * Submits the jobs through `submit` once their output names are theirs: a name a request under
 * way still writes is a 409, and the names are let go again when the submission is refused.
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
}
