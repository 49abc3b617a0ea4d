import { OUTPUT_FORMATS, renderFailedEventSchema, renderFinishedEventSchema, renderProgressSchema } from "@compose/core";
import { z } from "zod";
import { batchMembershipSchema, metadataSchema, webhookStatusSchema } from "./request-fields.js";

export const RENDER_STATES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type RenderState = (typeof RENDER_STATES)[number];

const finished = renderFinishedEventSchema.shape;

/** A completed render's output: the finished event's facts, by the names the status resource has always had. */
export const renderOutputSchema = z.strictObject({
  url: z.string().describe("Where to download it, relative to the server: /render/{id}/output."),
  format: finished.format,
  size: finished.sizeBytes.describe("Bytes; for png-sequence, all files together."),
  duration: finished.durationSeconds.describe("Seconds."),
  width: finished.width,
  height: finished.height,
  frames: finished.frames,
});

/** GET /render/:id. Absent facts are null rather than missing, so clients need not guess. */
export const renderStatusSchema = z.strictObject({
  requestId: z.string(),
  state: z.enum(RENDER_STATES),
  composition: z.string().describe("As the request named it."),
  format: z.enum(OUTPUT_FORMATS),
  position: z.number().int().min(1).nullable().describe("Place in the queue while queued (1 runs next)."),
  progress: renderProgressSchema.nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  output: renderOutputSchema.nullable(),
  error: renderFailedEventSchema.pick({ code: true, message: true }).nullable(),
  outputName: z
    .string()
    .describe(
      "The output's name in the outputs directory: the request's outputName, its batch's output template's, else <requestId>.<ext> (<requestId> for png-sequence).",
    ),
  metadata: metadataSchema.nullable().describe("The request's metadata, as it gave it."),
  batch: batchMembershipSchema.nullable().describe("The batch this request is a row of."),
  webhook: webhookStatusSchema.nullable().describe("The request's webhook and its delivery: attempts start once the render has ended."),
});

export type RenderOutput = z.infer<typeof renderOutputSchema>;
export type RenderStatus = z.infer<typeof renderStatusSchema>;
