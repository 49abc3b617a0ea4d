import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BATCH_BODY_MIB_LIMITS, BATCH_ROW_LIMITS } from "../config/server-config.js";
import type { RenderBatch } from "../jobs/render-batch.js";
import { parseBatchRequest } from "./batch-request.js";
import { HttpError } from "./errors.js";
import { acceptOnce, replayHeader } from "./idempotency.js";
import { findBatchById, keepBatch, newBatch, newJob, submitClaimed, type RouteState } from "./route-state.js";
import { openEventStream } from "./sse.js";
import { renderUrls } from "../jobs/render-urls.js";

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** POST /render/batch and /render/batch/stream, GET and DELETE /render/batch/{id}. */
export function registerBatchRoutes(app: FastifyInstance, state: RouteState): void {
  const { context } = state;
  const { backend } = context;
  // A batch's body holds every row: it has a limit of its own, far above a single request's.
  const bodyLimit = context.maxBatchBodyBytes ?? BATCH_BODY_MIB_LIMITS.default * 1024 * 1024;

  function findBatch(id: string): RenderBatch {
    const batch = findBatchById(state, id);
    if (!batch) throw new HttpError(404, "unknown-batch", `there is no batch ${id}`);
    return batch;
  }

  /** Every row checked, then every row queued in order as a request of its own, or none; with an Idempotency-Key sent before, the batch it made then. */
  async function createBatch(request: FastifyRequest, reply: FastifyReply): Promise<RenderBatch> {
    const id = await acceptOnce(request, reply, context.records?.store, async () => {
      const id = randomUUID();
      const parsed = await parseBatchRequest(
        request.body,
        { ...context, webhooks: context.webhooks !== undefined, maxBatchRows: context.maxBatchRows ?? BATCH_ROW_LIMITS.default },
        { batch: id, row: randomUUID },
      );
      const jobs = parsed.rows.map((row) => newJob(state, row.id, row.spec));
      const batch = newBatch(state, id, jobs, parsed.spec);
      await submitClaimed(state, jobs, () => backend.submitMany(jobs));
      keepBatch(state, batch);
      return id;
    });
    return findBatch(id);
  }

  app.post("/render/batch", { bodyLimit }, async (request, reply: FastifyReply) => {
    const batch = await createBatch(request, reply);
    const statusUrl = renderUrls.batch(batch.id);
    return reply
      .status(202)
      .header("location", statusUrl)
      .send({ batchId: batch.id, statusUrl, requestIds: batch.rows.map((job) => job.id) });
  });

  app.post("/render/batch/stream", { bodyLimit }, async (request, reply: FastifyReply) => {
    const batch = await createBatch(request, reply);
    reply.hijack();
    const stream = openEventStream(reply.raw, { location: renderUrls.batch(batch.id), ...replayHeader(reply) });
    const unfollow = batch.follow((event) => {
      stream.send(event);
      if (event.type === "batch-finished") stream.end();
    });
    // A client that goes away no longer wants the batch: its rows leave the queue or stop.
    stream.onClose(() => {
      unfollow();
      if (!batch.ended) void backend.cancelMany(batch.unfinished().map((job) => job.id));
    });
  });

  app.get("/render/batch/:id", async (request: IdRequest) => findBatch(request.params.id).status());

  app.delete("/render/batch/:id", async (request: IdRequest) => {
    const batch = findBatch(request.params.id);
    if (batch.ended) throw new HttpError(409, "not-cancellable", `batch ${batch.id} has already ended`);
    await backend.cancelMany(batch.unfinished().map((job) => job.id));
    return batch.status();
  });
}
