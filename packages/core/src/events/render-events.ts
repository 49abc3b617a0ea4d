/**
 * The events of a render, declared once: what render()'s onEvent receives, what `compose render`
 * prints, what the server streams and the preview shows. Their TypeScript types are inferred
 * from these schemas, and the producer's OpenAPI document is generated from them
 * (packages/producer/src/openapi/openapi-document.ts).
 */
import { z } from "zod";
import { FRAME_RATES, OUTPUT_FORMATS, QUALITY_NAMES } from "../options/option-declarations.js";
import { DURATION_SOURCES } from "../timing/resolve-timing.js";

/**
 * Every code a render can fail with (docs/untrusted-compositions.md says what each means).
 * `invalid-request` is a request refused before any render starts (a flag, a body field); the
 * renderer's come next; `invalid-job` and `worker-lost` are a cluster's, when a job in Redis is
 * not one a server wrote or its workers stopped.
 */
export const RENDER_ERROR_CODES = [
  "invalid-request",
  "invalid-composition",
  "invalid-variables",
  "missing-asset",
  "browser-missing",
  "browser-crashed",
  "ffmpeg-missing",
  "encode-failed",
  "page-error",
  "media-error",
  "not-ready",
  "page-crashed",
  "page-hung",
  "left-composition",
  "invalid-output",
  "invalid-frames",
  "limit-exceeded",
  "disk-full",
  "internal-error",
  "cancelled",
  "invalid-job",
  "worker-lost",
  "composition-changed",
  "outputs-not-shared",
] as const;

export const renderErrorCodeSchema = z.enum(RENDER_ERROR_CODES);
export type RenderErrorCode = z.infer<typeof renderErrorCodeSchema>;

const count = () => z.number().int().min(0);
const outputFormat = z.enum(OUTPUT_FORMATS);
const outputPath = z.string().describe("Where the render writes: a file, or a directory for png-sequence.");

export const renderStartedEventSchema = z.strictObject({
  type: z.literal("started"),
  composition: z.string().describe("The composition's id (`data-composition-id`)."),
  output: outputPath,
  format: outputFormat,
  fps: z.union(FRAME_RATES.map((rate) => z.literal(rate))),
  quality: z.enum(QUALITY_NAMES),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  durationSeconds: z.number().min(0),
  durationSource: z.enum(DURATION_SOURCES).describe("Which part of the duration rule gave the duration."),
  totalFrames: count(),
  workers: z.number().int().min(1).describe("Browsers capturing in parallel (in a chunked render, for each chunk)."),
  captureMode: z.enum(["beginframe", "screenshot"]),
});

/** Where a render is: what the progress event and the server's status resource both carry. */
export const renderProgressSchema = z.strictObject({
  stage: z.enum(["capture", "assemble"]),
  frame: count().describe("Frames captured so far."),
  totalFrames: count(),
  percent: z.number().min(0).max(100),
});

export const renderProgressEventSchema = z.strictObject({
  type: z.literal("progress"),
  ...renderProgressSchema.shape,
  framesPerSecond: z.number().min(0).describe("Frames captured per second since capture began."),
});

export const renderWarningEventSchema = z.strictObject({
  type: z.literal("warning"),
  code: z.string().describe("The warning's kind: a lint or variable issue code, or the renderer's (`missing-asset`, `no-change`, `gpu-unavailable`, ...)."),
  message: z.string(),
  more: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "On the warning that counts the others of its code past the first ten, which are not sent: how many there were (`and 14,990 more undeclared keys`).",
    ),
});

export const frameStatsSchema = z.strictObject({
  frames: count(),
  reused: count().describe("Frames whose image was reused because the seek changed nothing."),
  shared: count().describe("In a batch, frames whose image an earlier row captured, its page painting the same (see docs/batch.md): not captured again."),
  seekMs: z.number().min(0),
  captureMs: z.number().min(0),
  fingerprintMs: z.number().min(0).describe("In a batch, the part of captureMs spent telling whether a frame paints as an earlier row's did."),
  replayedFrames: count().describe("Frames played without capture to give a page that starts after frame 0 its history."),
  replayMs: z.number().min(0),
});

export const HISTORY_PATHS = ["replay", "skip"] as const;

export const renderFinishedEventSchema = z.strictObject({
  type: z.literal("finished"),
  output: outputPath,
  format: outputFormat,
  durationSeconds: z.number().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  frames: count(),
  sizeBytes: count().describe("For png-sequence, all files together."),
  captureMs: z.number().min(0).describe("Time spent seeking and capturing (encoding runs alongside)."),
  elapsedMs: z.number().min(0).describe("Time from the start of the render to the committed output."),
  stats: frameStatsSchema.describe("Where capture time went, summed over the browsers (and chunks)."),
  history: z
    .enum(HISTORY_PATHS)
    .describe(
      "How workers and chunks that start after frame 0 got there: `replay` when the composition builds its state frame by frame (they played every frame before their first), `skip` when its state is a function of time.",
    ),
});

/** One thing that went wrong: its code is a failure's, or a cause's such as `network-refused`. */
export const renderProblemSchema = z.strictObject({ code: z.string(), message: z.string() });

export const renderFailedEventSchema = z.strictObject({
  type: z.literal("failed"),
  code: renderErrorCodeSchema,
  message: z.string(),
  problems: z
    .array(renderProblemSchema)
    .describe(
      "What went wrong, in the order it did, each with its code: the cause first (a script that failed to load), then what may follow from it (a page error). One entry when the failure has a single cause.",
    ),
});

export const renderEventSchema = z.discriminatedUnion("type", [
  renderStartedEventSchema,
  renderProgressEventSchema,
  renderWarningEventSchema,
  renderFinishedEventSchema,
  renderFailedEventSchema,
]);

export type RenderStartedEvent = z.infer<typeof renderStartedEventSchema>;
export type RenderProgress = z.infer<typeof renderProgressSchema>;
export type RenderProgressEvent = z.infer<typeof renderProgressEventSchema>;
export type RenderWarningEvent = z.infer<typeof renderWarningEventSchema>;
export type FrameStats = z.infer<typeof frameStatsSchema>;
export type HistoryPath = (typeof HISTORY_PATHS)[number];
export type RenderFinishedEvent = z.infer<typeof renderFinishedEventSchema>;
export type RenderProblem = z.infer<typeof renderProblemSchema>;
export type RenderFailedEvent = z.infer<typeof renderFailedEventSchema>;
export type RenderEvent = z.infer<typeof renderEventSchema>;

/** Every event's `type`, at run time: what clients and docs may name. */
export const RENDER_EVENT_TYPES = renderEventSchema.options.map((schema) => schema.shape.type.value);
