import { tmpdir } from "node:os";
import { dirname, sep } from "node:path";
import {
  RENDER_EVENT_TYPES,
  renderFailedEventSchema,
  renderFinishedEventSchema,
  renderProgressEventSchema,
  renderStartedEventSchema,
  renderWarningEventSchema,
} from "@compose/core";
import type { RenderEvent as RendererEvent } from "@compose/renderer";
import { z } from "zod";
import { batchMembershipSchema, metadataSchema } from "./request-fields.js";

const requestId = z.string().describe("The request's id, as POST /render answered it.");
/** Facts of the request every one of its events carries, when it has them. */
const requestFacts = {
  metadata: metadataSchema.optional().describe("The request's metadata, on every event of a request that has it."),
  row: batchMembershipSchema.shape.row.optional().describe("The request's row in its batch (from 1), on every event of a batch's row."),
};
const downloadUrl = z
  .string()
  .describe(
    "Where to download the output, relative to the server: /render/{id}/output. The renderer names a path on the machine that rendered; the server gives the URL instead.",
  );

/**
 * The queue's own events, before the renderer has anything to say: the request waits at
 * `position` (1 runs next), or it has a slot and its render is being set up (`running`, whether or
 * not it waited). Their names are the request's states and never a renderer event's.
 */
export const queuedEventSchema = z.object({ type: z.literal("queued"), requestId, position: z.number().int().min(1), ...requestFacts });
export const runningEventSchema = z.object({ type: z.literal("running"), requestId, ...requestFacts });

/** The renderer's events as a client receives them: see clientEvent. */
export const clientRenderEventSchemas = {
  started: renderStartedEventSchema.extend({ requestId, output: downloadUrl, ...requestFacts }),
  progress: renderProgressEventSchema.extend({ requestId, ...requestFacts }),
  warning: renderWarningEventSchema.extend({ requestId, ...requestFacts }),
  finished: renderFinishedEventSchema.extend({ requestId, output: downloadUrl, ...requestFacts }),
  failed: renderFailedEventSchema.extend({ requestId, ...requestFacts }),
};

const { started, progress, warning, finished, failed } = clientRenderEventSchemas;
const clientRenderEventSchema = z.discriminatedUnion("type", [started, progress, warning, finished, failed]);

/** Every event a stream may carry, by `type`: the queue's, then the renderer's. */
export const jobEventSchema = z.discriminatedUnion("type", [queuedEventSchema, runningEventSchema, ...clientRenderEventSchema.options]);

export type QueueEvent = z.infer<typeof queuedEventSchema> | z.infer<typeof runningEventSchema>;
/** What a client hears of one request: the queue's events, then the renderer's own. */
export type JobEvent = z.infer<typeof jobEventSchema>;
/** A renderer event as a client receives it, of one `type` or any. */
export type ClientRenderEvent<Type extends (typeof RENDER_EVENT_TYPES)[number] = (typeof RENDER_EVENT_TYPES)[number]> = Extract<JobEvent, { type: Type }>;

export const JOB_EVENT_TYPES = jobEventSchema.options.map((schema) => schema.shape.type.value);

/** The output as the renderer names it (a path on the machine that rendered), and as clients download it. */
export interface JobOutput {
  path: string;
  url: string;
}

/**
 * A message with the server's own paths replaced by what a client knows: the request's output
 * by its download URL, the outputs directory and the temporary directory by their names.
 */
function withoutServerPaths(message: string, { path: output, url }: JobOutput): string {
  return message
    .replaceAll(output, url)
    .replaceAll(`${dirname(output)}${sep}`, "")
    .replaceAll(dirname(output), "the outputs directory")
    .replaceAll(tmpdir(), "the server's temporary directory");
}

/**
 * The renderer's event as the server's clients receive it: with the request's id, with `output`
 * (the renderer names a path on the machine that rendered) as the output's download URL, and no
 * path of the server's in a message, so the server never shows its filesystem. It is checked
 * against the schema the OpenAPI document publishes: a field the schema does not allow is a bug,
 * refused here rather than sent.
 */
export function clientEvent(requestId: string, event: RendererEvent, output: JobOutput): ClientRenderEvent {
  const sent = { ...event, requestId };
  const client = "message" in sent ? { ...sent, message: withoutServerPaths(sent.message, output) } : "output" in sent ? { ...sent, output: output.url } : sent;
  const checked = clientRenderEventSchema.safeParse(client);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0]!;
  throw new Error(`a ${event.type} event the event schema refuses: ${issue.path.join(".") || "the event"} ${issue.message}`);
}

/** The request's last event: nothing follows it. */
export function isFinalEvent(event: JobEvent): boolean {
  return event.type === "finished" || event.type === "failed";
}
