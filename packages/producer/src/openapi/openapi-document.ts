import {
  CONCURRENT_RENDERS,
  FOLDER_FORMAT,
  FORMAT_TABLE,
  isFolderOutput,
  jsonSchema,
  OUTPUT_FORMATS,
  renderOptionsSchema,
  renderProgressSchema,
} from "@compose/core";
import { z } from "zod";
import { batchAcceptedSchema, batchCountsSchema, batchFinishedEventSchema, batchRowStatusSchema, batchStatusSchema } from "../jobs/batch-status.js";
import { clientRenderEventSchemas, queuedEventSchema, runningEventSchema } from "../jobs/job-events.js";
import { metadataSchema, webhookRequestSchema, webhookStatusSchema } from "../jobs/request-fields.js";
import { renderOutputSchema, renderStatusSchema } from "../jobs/render-status.js";
import { MAX_OUTPUT_NAME_LENGTH, OUTPUT_NAME_PATTERN } from "../output/output-files.js";
import { WEBHOOK_HEADERS } from "../webhooks/webhook-signature.js";
import { INFO_SCHEMA_PATH } from "../http/routes.js";

/** The content types of the outputs that are one file: every format's but the folder's. */
const FILE_CONTENT_TYPES = OUTPUT_FORMATS.filter((format) => !isFolderOutput(format)).map((format) => FORMAT_TABLE[format].contentType);

const compositionProperty = {
  type: "string",
  description:
    "Path relative to the projects directory (`--projects`): a directory holding an index.html, or an HTML file. Absolute paths, `..` and symbolic links leading outside are refused.",
  examples: ["hello", "promo/intro.html"],
};

/** The request's own fields, which are not render options: documented here, checked by the same schemas (jobs/request-fields.ts). */
const requestOnlyProperties = {
  metadata: jsonSchema(metadataSchema),
  webhook: jsonSchema(webhookRequestSchema),
};

/**
 * A request body: `composition`, the request's own fields and the render options as JSON Schema,
 * from the one zod schema the CLI and the server validate them with.
 */
function requestSchema(description: string, own: Record<string, object>, required: string[]): object {
  const { properties, ...options } = jsonSchema(renderOptionsSchema) as { properties: Record<string, object> };
  return { ...options, description, required, properties: { composition: compositionProperty, ...own, ...properties } };
}

const outputNameProperty = {
  type: "string",
  maxLength: MAX_OUTPUT_NAME_LENGTH,
  pattern: OUTPUT_NAME_PATTERN,
  description:
    "The output's file name inside the outputs directory, in place of <requestId>.<ext>: no directories, no `..`, not hidden, with the format's extension (none for png-sequence). While a request writing the same name is queued or running: 409. The request id stays the key of every URL.",
  examples: ["welcome-ada.mp4"],
};

const renderRequestSchema = () =>
  requestSchema(
    "A composition, the request's own fields (`metadata`, `outputName`, `webhook`) and the render options of `compose render` by their JSON names. Unknown fields are refused.",
    { ...requestOnlyProperties, outputName: outputNameProperty },
    ["composition"],
  );

const batchRequestSchema = () =>
  requestSchema(
    "A composition, its rows, an optional output template, the batch's own fields and the render options every row shares. Each row becomes one request, queued in order; every row is checked before any is queued.",
    {
      rows: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          description: "One row: the `variables` of its request (over the batch's own `variables`), checked as a single request's `variables` are.",
        },
        description: "One object of variable values per output. More rows than the server's --max-batch-rows: 413.",
        examples: [[{ name: "Ada" }, { name: "Grace" }]],
      },
      output: {
        type: "string",
        description:
          "A template of the rows' output names in the outputs directory: `{index}` (the row from 1, zero-padded to the row count's width), `{ext}` (the format's extension) and `{<variable id>}` (the row's value, else the declared default, made safe for a file name). Each name is checked as an outputName is; two rows naming one file: 400. Absent: <requestId>.<ext>.",
        examples: ["{index}-{name}.{ext}"],
      },
      ...requestOnlyProperties,
    },
    ["composition", "rows"],
  );

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ "application/json": { schema } });

function errorResponse(description: string) {
  return { description, content: json(ref("Error")) };
}

const errors = {
  400: errorResponse("The body is not valid JSON, a field is unknown or has a bad value (`field` names it), or the composition path is refused."),
  401: errorResponse("A token is configured and the request has no valid `Authorization: Bearer <token>`."),
  404: errorResponse("No render has this id."),
  409: errorResponse(
    "The render is not in a state that allows this, or (on submission) its outputName is being written by a request still queued or running, or a request with its Idempotency-Key is still being accepted: see `code`.",
  ),
  410: errorResponse("The output was removed from the server's disk."),
  413: errorResponse("The body is larger than 256 KiB, or (with `--queue`) the job it makes is: `payload-too-large`."),
  415: errorResponse("The body is not `application/json`."),
  416: { ...errorResponse("The range lies outside the file."), headers: { "Content-Range": { schema: { type: "string" }, description: "bytes */<size>" } } },
  422: errorResponse("The Idempotency-Key was sent within the last day with another route or body: `idempotency-key-reused`."),
  429: errorResponse("`--max-queue` requests are already waiting."),
  503: errorResponse("The server is shutting down (`shutting-down`), or its Redis queue cannot be reached (`queue-unavailable`)."),
};

/** The header that makes a submission safe to retry. */
const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  description:
    "Makes the POST safe to retry: the same key with the same route and body within a day answers the request (or batch) the first one made, with `Idempotent-Replayed: true`, and accepts nothing new; with another route or body it is a 422. A key whose request is still being accepted is a 409 `idempotency-key-in-use`.",
};

const pick = (...codes: Array<keyof typeof errors>) => Object.fromEntries(codes.map((code) => [code, errors[code]]));

/** The refusals of a batch's submission, where they say more than a single request's. */
const batchErrors = {
  400: errorResponse(
    "As for a single request; refused rows are all listed (`rows`: each `{row, message}`, the first ones in `message` too), as are rows whose output names are refused; two rows naming one file is a 400 naming both.",
  ),
  409: errorResponse(
    "A row's output name is being written by a request still queued or running (`output-name-taken`), or a request with the Idempotency-Key is still being accepted (`idempotency-key-in-use`).",
  ),
  413: errorResponse(
    "More rows than the server's --max-batch-rows, a body larger than its --max-batch-body-mib, or (with `--queue`) a row's job over 256 KiB: `payload-too-large`.",
  ),
  429: errorResponse("The rows that would wait do not fit in the queue (`--max-queue`): nothing is queued."),
};
const unknownBatch = errorResponse("No batch has this id: `unknown-batch`.");

const idParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "The requestId." };

const fileHeaders = {
  "Content-Length": { schema: { type: "integer" } },
  "Accept-Ranges": { schema: { type: "string", const: "bytes" } },
};
const partialHeaders = { ...fileHeaders, "Content-Range": { schema: { type: "string" }, description: "bytes <first>-<last>/<size>" } };
const binary = (types: string[]) => Object.fromEntries(types.map((type) => [type, { schema: { type: "string", contentEncoding: "binary" } }]));
const rangeHeader = {
  name: "Range",
  in: "header",
  required: false,
  schema: { type: "string" },
  description: "One byte range (`bytes=0-1023`, `bytes=1024-`, `bytes=-500`); several ranges are ignored and the whole file is sent.",
};

/**
 * What each event of the stream is for, by its name in the document. The events themselves are
 * the zod schemas the server checks each one with before sending it (jobs/job-events.ts, from
 * core's render events), here converted, never written again.
 */
const EVENTS = {
  QueuedEvent: [queuedEventSchema, "Sent before rendering begins when every slot is busy, and again each time the place changes. Position 1 runs next."],
  RunningEvent: [
    runningEventSchema,
    "The request has a slot (it left the queue, or never waited); the renderer's `started` follows once the composition is loaded.",
  ],
  StartedEvent: [
    clientRenderEventSchemas.started,
    "The renderer has loaded the composition and begins to capture. In a chunked render, sent when the first chunk starts, with the whole render's `totalFrames` and `durationSeconds`.",
  ],
  ProgressEvent: [
    clientRenderEventSchemas.progress,
    "At most every 100 ms while capturing (`stage: capture`, frames summed over the chunks of a chunked render), and when the output is assembled.",
  ],
  WarningEvent: [
    clientRenderEventSchemas.warning,
    "A problem the render works around, such as an undeclared variable without strictVariables. Of each code the first ten are sent; the others are counted in one last warning of that code.",
  ],
  FinishedEvent: [clientRenderEventSchemas.finished, "The last event of a successful render. Time waiting in the queue is not in `elapsedMs`."],
  FailedEvent: [
    clientRenderEventSchemas.failed,
    "The last event of a failed or cancelled render. `code` is one of the error codes; `cancelled` when the client, the server or a worker stopped it.",
  ],
} satisfies Record<string, [z.ZodType, string]>;

/**
 * The stream's events and the status resource as JSON Schema, from their zod schemas: each
 * under its name, referring to the others (RenderProgress, RenderOutput) by $ref.
 */
function generatedSchemas(): Record<string, object> {
  const registry = z.registry<{ id: string }>();
  for (const [id, [schema, description]] of Object.entries(EVENTS)) registry.add(schema.describe(description), { id });
  registry.add(renderProgressSchema, { id: "RenderProgress" });
  registry.add(renderOutputSchema, { id: "RenderOutput" });
  registry.add(renderStatusSchema, { id: "RenderStatus" });
  registry.add(webhookStatusSchema, { id: "WebhookStatus" });
  registry.add(batchCountsSchema, { id: "BatchCounts" });
  registry.add(batchRowStatusSchema, { id: "BatchRowStatus" });
  registry.add(batchStatusSchema, { id: "BatchStatus" });
  registry.add(batchAcceptedSchema, { id: "BatchAccepted" });
  registry.add(
    batchFinishedEventSchema.describe("The last event of a batch's stream, once every row has sent its last event: how many rows ended in each state."),
    {
      id: "BatchFinishedEvent",
    },
  );
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => ref(id).$ref });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]));
}

const nullable = (schema: object) => ({ oneOf: [schema, { type: "null" }] });

const schemas = {
  RenderRequest: renderRequestSchema(),
  BatchRequest: batchRequestSchema(),
  QueueStatus: {
    type: "object",
    required: ["maxConcurrentRenders", "activeRenders", "queuedRenders"],
    additionalProperties: false,
    properties: {
      maxConcurrentRenders: { type: "integer", minimum: CONCURRENT_RENDERS.min, maximum: CONCURRENT_RENDERS.max },
      activeRenders: { type: "integer", minimum: 0 },
      queuedRenders: { type: "integer", minimum: 0 },
    },
  },
  RenderAccepted: {
    type: "object",
    required: ["requestId", "state", "position", "statusUrl"],
    properties: {
      requestId: { type: "string" },
      state: { type: "string", enum: ["queued", "running"] },
      position: nullable({ type: "integer", minimum: 1 }),
      statusUrl: { type: "string", description: "/render/{id}, also in the Location header." },
    },
  },
  SequenceListing: {
    type: "object",
    description: "A png-sequence output is many files: this lists them, each downloadable from its url.",
    required: ["format", "files"],
    properties: {
      format: { const: FOLDER_FORMAT },
      files: {
        type: "array",
        items: {
          type: "object",
          required: ["name", "size", "url"],
          properties: { name: { type: "string", examples: ["frame_000000.png", "audio.aac"] }, size: { type: "integer" }, url: { type: "string" } },
        },
      },
    },
  },
  Error: {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", examples: ["invalid-request", "unauthorized", "unknown-render", "queue-full"] },
          message: { type: "string" },
          field: { type: "string", description: "The request field at fault, when one is." },
          rows: {
            type: "array",
            description: "A batch's refused rows, every one of them.",
            items: { type: "object", required: ["row", "message"], properties: { row: { type: "integer", minimum: 1 }, message: { type: "string" } } },
          },
        },
      },
    },
  },
  ...generatedSchemas(),
};

const renderBody = { required: true, content: json(ref("RenderRequest")) };
const batchBody = { required: true, content: json(ref("BatchRequest")) };
const batchIdParameter = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "The batchId." };
const eventStream = (...names: string[]) => ({ "text/event-stream": { schema: { oneOf: names.map(ref) } } });

/** How a receiver knows a webhook's POST is the server's: the headers it carries. */
const webhookHeaders = {
  [WEBHOOK_HEADERS.delivery]: {
    schema: { type: "string" },
    description: "The delivery's id, the same on every attempt: a receiver that has seen it may ignore a repeat.",
  },
  [WEBHOOK_HEADERS.event]: { schema: { type: "string", enum: ["render", "batch"] }, description: "What ended." },
  [WEBHOOK_HEADERS.timestamp]: {
    schema: { type: "string" },
    description: "Unix time in seconds when the attempt was signed; refuse old ones so a POST cannot be replayed.",
  },
  [WEBHOOK_HEADERS.signature]: {
    schema: { type: "string" },
    description: "`sha256=` and the hex HMAC-SHA256, keyed with the server's webhook secret, of `${timestamp}.${body}` (the raw body).",
  },
};

const webhookOperation = (summary: string, body: string) => ({
  post: {
    summary,
    description:
      "Sent by the server to the request's `webhook.url`, signed (see the headers). Retried on a network failure or an answer that is not 2xx after 1 s, 2 s, 4 s, … at most 60 s apart, for at least 10 minutes; each attempt shows in the status's `webhook`.",
    parameters: Object.entries(webhookHeaders).map(([name, header]) => ({ name, in: "header", required: true, ...header })),
    requestBody: { required: true, content: json(ref(body)) },
    responses: { 200: { description: "Any 2xx status: delivered." } },
  },
});

/** The server's API as OpenAPI 3.1, served at GET /openapi.json. */
export function openApiDocument(): object {
  return {
    openapi: "3.1.0",
    info: {
      title: "compose producer",
      version: "0.1.0",
      description:
        "Renders HTML compositions to video. At most maxConcurrentRenders renders run at once; the rest wait in FIFO order. Decisions not fixed by the specification are recorded in packages/producer/README.md.",
    },
    security: [{ bearer: [] }],
    paths: {
      "/health": {
        get: {
          summary: "Liveness; never needs the token",
          security: [],
          responses: { 200: { description: "The server is up.", content: json({ type: "object", properties: { status: { const: "ok" } } }) } },
        },
        head: {
          summary: "Liveness as GET /health answers it, without the body; never needs the token",
          security: [],
          responses: { 200: { description: "The server is up." } },
        },
      },
      "/openapi.json": {
        get: { summary: "This document", responses: { 200: { description: "OpenAPI 3.1", content: json({ type: "object" }) }, ...pick(401) } },
      },
      [INFO_SCHEMA_PATH]: {
        get: {
          summary: "The JSON Schema of `compose info --json`",
          description: "What `compose info --json` prints, as a JSON Schema (2020-12) of its own; docs/schemas/info.schema.json holds the same.",
          responses: { 200: { description: "JSON Schema", content: { "application/schema+json": { schema: { type: "object" } } } }, ...pick(401) },
        },
      },
      "/render/queue": {
        get: {
          summary: "Queue state, to decide whether to submit now",
          responses: { 200: { description: "Counts", content: json(ref("QueueStatus")) }, ...pick(401, 503) },
        },
      },
      "/render": {
        post: {
          summary: "Submit a render and return at once",
          parameters: [idempotencyKey],
          requestBody: renderBody,
          responses: {
            202: { description: "Accepted: queued or running.", headers: { Location: { schema: { type: "string" } } }, content: json(ref("RenderAccepted")) },
            ...pick(400, 401, 409, 413, 415, 422, 429, 503),
          },
        },
      },
      "/render/stream": {
        post: {
          summary: "Submit a render and follow it as server-sent events",
          description:
            "Each event has an SSE `event:` name equal to its JSON data's `type`: the queue's `queued` and `running`, then the renderer's own events (`started`, `progress`, `warning`, `finished`, `failed`) with the request's `requestId` and `output` as the download URL. The stream ends after `finished` or `failed`. Closing the connection cancels the render, or removes it from the queue.",
          parameters: [idempotencyKey],
          requestBody: renderBody,
          responses: {
            200: {
              description: "The event stream.",
              headers: { Location: { schema: { type: "string" }, description: "/render/{id}" } },
              content: eventStream(...Object.keys(EVENTS)),
            },
            ...pick(400, 401, 409, 413, 415, 422, 429, 503),
          },
        },
      },
      "/render/{id}": {
        parameters: [idParameter],
        get: {
          summary: "State and progress of a render",
          responses: { 200: { description: "Status", content: json(ref("RenderStatus")) }, ...pick(401, 404, 503) },
        },
        delete: {
          summary: "Cancel a render, or take it out of the queue",
          description: "Returns once the render has stopped and cleaned up. Its state is then `cancelled`, or `completed`/`failed` if it ended first.",
          responses: { 200: { description: "The final status.", content: json(ref("RenderStatus")) }, ...pick(401, 404, 409, 503) },
        },
      },
      "/render/{id}/events": {
        parameters: [idParameter],
        get: {
          summary: "Follow any request, from its start to its end, as server-sent events",
          description:
            "The request's events so far (all of them but its place in the queue and its progress, of which the latest), then each later one, ending after `finished` or `failed`; at once for a request that has ended. Any number of listeners; one that goes away cancels nothing. The events are those of POST /render/stream, whichever route started the request.",
          responses: { 200: { description: "The event stream.", content: eventStream(...Object.keys(EVENTS)) }, ...pick(401, 404, 503) },
        },
      },
      "/render/batch": {
        post: {
          summary: "Submit a batch: one request per row, and return at once",
          parameters: [idempotencyKey],
          requestBody: batchBody,
          responses: {
            202: {
              description: "Accepted: every row is queued (or running).",
              headers: { Location: { schema: { type: "string" } } },
              content: json(ref("BatchAccepted")),
            },
            ...pick(401, 415, 422, 503),
            ...batchErrors,
          },
        },
      },
      "/render/batch/stream": {
        post: {
          summary: "Submit a batch and follow its rows as server-sent events",
          description:
            "Every row's events, as POST /render/stream sends a request's, each with the row's `row` (from 1) and `requestId`; a row's `queued` is sent once, when it is queued. `batch-finished` follows the last row's last event, and ends the stream. Closing the connection cancels the rows that have not ended.",
          parameters: [idempotencyKey],
          requestBody: batchBody,
          responses: {
            200: {
              description: "The event stream.",
              headers: { Location: { schema: { type: "string" }, description: "/render/batch/{id}" } },
              content: eventStream(...Object.keys(EVENTS), "BatchFinishedEvent"),
            },
            ...pick(401, 415, 422, 503),
            ...batchErrors,
          },
        },
      },
      "/render/batch/{id}": {
        parameters: [batchIdParameter],
        get: {
          summary: "The batch's rows, each in brief, and how many are in each state",
          responses: { 200: { description: "Status", content: json(ref("BatchStatus")) }, ...pick(401, 503), 404: unknownBatch },
        },
        delete: {
          summary: "Cancel the rows that have not ended",
          description: "Waiting rows leave the queue, running ones are stopped; answers once they have, with the batch's status.",
          responses: {
            200: { description: "The batch's status.", content: json(ref("BatchStatus")) },
            ...pick(401, 503),
            404: unknownBatch,
            409: errorResponse("The batch has already ended: `not-cancellable`."),
          },
        },
      },
      "/render/{id}/output": {
        parameters: [idParameter],
        get: {
          summary: "Download the output",
          description: "A video or GIF file with its content type, or for png-sequence a listing of its files.",
          parameters: [rangeHeader],
          responses: {
            200: {
              description: "The whole file, or the listing.",
              headers: fileHeaders,
              content: { ...binary(FILE_CONTENT_TYPES), ...json(ref("SequenceListing")) },
            },
            206: { description: "The requested range.", headers: partialHeaders, content: binary(FILE_CONTENT_TYPES) },
            ...pick(401, 404, 409, 410, 416),
          },
        },
      },
      "/render/{id}/output/{file}": {
        parameters: [idParameter, { name: "file", in: "path", required: true, schema: { type: "string" }, description: "A name from the listing." }],
        get: {
          summary: "Download one file of a png-sequence output",
          parameters: [rangeHeader],
          responses: {
            200: { description: "The whole file.", headers: fileHeaders, content: binary(["image/png", "audio/aac"]) },
            206: { description: "The requested range.", headers: partialHeaders, content: binary(["image/png", "audio/aac"]) },
            ...pick(401, 404, 409, 410, 416),
          },
        },
      },
    },
    webhooks: {
      renderEnded: webhookOperation("A request with a webhook has ended: its final status", "RenderStatus"),
      batchEnded: webhookOperation("A batch with a webhook has ended: its final status, every row in brief", "BatchStatus"),
    },
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "Required on every route but /health when the server was started with --token or COMPOSE_TOKEN.",
        },
      },
      schemas,
    },
  };
}
