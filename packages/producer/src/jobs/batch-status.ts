import { OUTPUT_FORMATS, renderFailedEventSchema } from "@compose/core";
import { z } from "zod";
import { metadataSchema, webhookStatusSchema } from "./request-fields.js";
import { RENDER_STATES, renderStatusSchema } from "./render-status.js";

const count = z.number().int().min(0);

/** How many of a batch's rows are in each state. */
export const batchCountsSchema = z.strictObject(
  Object.fromEntries(RENDER_STATES.map((state) => [state, count])) as Record<(typeof RENDER_STATES)[number], typeof count>,
);

export type BatchCounts = z.infer<typeof batchCountsSchema>;

const status = renderStatusSchema.shape;

/** One row of GET /render/batch/{id}: its request's status, in brief. */
export const batchRowStatusSchema = z.strictObject({
  row: z.number().int().min(1).describe("From 1, in the order of `rows`."),
  requestId: z.string().describe("The row's request: GET /render/{id} and /render/{id}/events follow it."),
  state: status.state,
  position: status.position,
  outputName: status.outputName,
  output: z.string().nullable().describe("Where to download the output once completed: /render/{id}/output."),
  error: renderFailedEventSchema.pick({ code: true, message: true }).nullable(),
  metadata: metadataSchema.nullable(),
});

export const BATCH_STATES = ["active", "ended"] as const;

/** GET /render/batch/{id}. */
export const batchStatusSchema = z.strictObject({
  batchId: z.string(),
  state: z.enum(BATCH_STATES).describe("`ended` once every row has completed, failed or been cancelled."),
  composition: z.string().describe("As the request named it."),
  format: z.enum(OUTPUT_FORMATS),
  total: z.number().int().min(1).describe("Rows in the batch."),
  counts: batchCountsSchema.describe("Rows in each state; they add up to `total`."),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable().describe("When the last row ended."),
  metadata: metadataSchema.nullable().describe("The batch's metadata, which each row's request carries too."),
  webhook: webhookStatusSchema.nullable().describe("The batch's webhook, called once when the batch has ended."),
  rows: z.array(batchRowStatusSchema),
});

export type BatchStatus = z.infer<typeof batchStatusSchema>;

/** POST /render/batch's answer. */
export const batchAcceptedSchema = z.strictObject({
  batchId: z.string(),
  statusUrl: z.string().describe("/render/batch/{id}, also in the Location header."),
  requestIds: z.array(z.string()).describe("One request per row, in the order of `rows`."),
});

/** The last event of POST /render/batch/stream. */
export const batchFinishedEventSchema = z.object({
  type: z.literal("batch-finished"),
  batchId: z.string(),
  total: z.number().int().min(1),
  counts: batchCountsSchema,
});

export type BatchFinishedEvent = z.infer<typeof batchFinishedEventSchema>;
