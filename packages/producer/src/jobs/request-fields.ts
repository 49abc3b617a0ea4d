/**
 * The fields of a render request that are the request's own rather than render options
 * (core's RENDER_OPTIONS): the client's `metadata`, where the server calls back (`webhook`), and
 * what it reports of that call. Their zod schemas validate requests and make the OpenAPI document.
 */
import { nestingDepth } from "@compose/core";
import { z } from "zod";

/** The largest `metadata`, serialized as JSON. */
export const MAX_METADATA_BYTES = 4096;
/** How deep `metadata` may nest (a flat object is 1). */
export const MAX_METADATA_DEPTH = 8;

const serializedBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

export const metadataSchema = z
  .record(z.string(), z.unknown(), { error: "must be a JSON object of the client's own" })
  .refine((value) => nestingDepth(value) <= MAX_METADATA_DEPTH, { error: `must be a JSON object nested at most ${MAX_METADATA_DEPTH} levels deep` })
  .refine((value) => serializedBytes(value) <= MAX_METADATA_BYTES, {
    error: (issue) => `is ${serializedBytes(issue.input)} bytes as JSON, over the limit of ${MAX_METADATA_BYTES}`,
  })
  .describe(
    `A JSON object the client chooses (at most ${MAX_METADATA_BYTES} bytes serialized, nested at most ${MAX_METADATA_DEPTH} deep), echoed in the request's status, its events and its webhook.`,
  );

export type RequestMetadata = z.infer<typeof metadataSchema>;

export const webhookRequestSchema = z
  .strictObject(
    {
      url: z
        .string({ error: "must be an http or https URL" })
        .max(2048, { error: "must be at most 2048 characters" })
        .refine(isHttpUrl, { error: "must be an http or https URL" }),
    },
    { error: "must be an object {url}" },
  )
  .describe(
    "Where the server POSTs the final status, signed, when the render (or the batch) ends. Needs a server with a webhook secret; the URL's host must be allowed by the server's network policy.",
  );

export type WebhookRequest = z.infer<typeof webhookRequestSchema>;

/** What the status says of a webhook's delivery. */
export const webhookStatusSchema = z.strictObject({
  url: z.string(),
  attempts: z.number().int().min(0).describe("POSTs made so far."),
  lastStatus: z.number().int().nullable().describe("The HTTP status of the last answer; null before the first or when no answer came."),
  lastError: z.string().nullable().describe("Why the last attempt failed without an answer (network, refused address); null otherwise."),
  delivered: z.boolean().describe("A POST was answered with a 2xx status."),
  nextAttemptAt: z.iso.datetime().nullable().describe("When the next attempt is due; null when delivered, given up, or the render has not ended."),
});

export type WebhookStatus = z.infer<typeof webhookStatusSchema>;

/** The batch a request is a row of. */
export const batchMembershipSchema = z.strictObject({
  id: z.string().describe("The batch's id: GET /render/batch/{id}."),
  row: z.number().int().min(1).describe("The request's row in the batch, from 1."),
});

export type BatchMembership = z.infer<typeof batchMembershipSchema>;
