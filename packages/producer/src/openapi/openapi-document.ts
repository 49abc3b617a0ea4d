import { CONCURRENT_RENDERS, renderOptionsSchema, renderProgressSchema } from "@compose/core";
import { z } from "zod";
import { clientRenderEventSchemas, queuedEventSchema, runningEventSchema } from "../jobs/job-events.js";
import { renderOutputSchema, renderStatusSchema } from "../jobs/render-status.js";

/** The render options as JSON Schema, from the one zod schema the CLI and the server validate with. */
function renderRequestSchema(): object {
  const { $schema: _, properties, ...options } = z.toJSONSchema(renderOptionsSchema, { io: "input" }) as {
    $schema: string;
    properties: Record<string, object>;
  };
  return {
    ...options,
    description: "A composition plus the render options of `compose render`, by their JSON names. Unknown fields are refused.",
    required: ["composition"],
    properties: {
      composition: {
        type: "string",
        description:
          "Path relative to the projects directory (`--projects`): a directory holding an index.html, or an HTML file. Absolute paths, `..` and symbolic links leading outside are refused.",
        examples: ["hello", "promo/intro.html"],
      },
      ...properties,
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ "application/json": { schema } });

function errorResponse(description: string) {
  return { description, content: json(ref("Error")) };
}

const errors = {
  400: errorResponse("The body is not valid JSON, a field is unknown or has a bad value (`field` names it), or the composition path is refused."),
  401: errorResponse("A token is configured and the request has no valid `Authorization: Bearer <token>`."),
  404: errorResponse("No render has this id."),
  409: errorResponse("The render is not in a state that allows this (see `code`)."),
  410: errorResponse("The output was removed from the server's disk."),
  413: errorResponse("The body is larger than 256 KiB, or (with `--queue`) the job it makes is: `payload-too-large`."),
  415: errorResponse("The body is not `application/json`."),
  416: { ...errorResponse("The range lies outside the file."), headers: { "Content-Range": { schema: { type: "string" }, description: "bytes */<size>" } } },
  429: errorResponse("`--max-queue` requests are already waiting."),
  503: errorResponse("The server is shutting down (`shutting-down`), or its Redis queue cannot be reached (`queue-unavailable`)."),
};

const pick = (...codes: Array<keyof typeof errors>) => Object.fromEntries(codes.map((code) => [code, errors[code]]));

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
  RunningEvent: [runningEventSchema, "The request has a slot (it left the queue, or never waited); the renderer's `started` follows once the composition is loaded."],
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
  FailedEvent: [clientRenderEventSchemas.failed, "The last event of a failed or cancelled render. `code` is one of the error codes; `cancelled` when the client, the server or a worker stopped it."],
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
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => ref(id).$ref });
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]));
}

const nullable = (schema: object) => ({ oneOf: [schema, { type: "null" }] });

const schemas = {
  RenderRequest: renderRequestSchema(),
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
      format: { const: "png-sequence" },
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
        },
      },
    },
  },
  ...generatedSchemas(),
};

const renderBody = { required: true, content: json(ref("RenderRequest")) };

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
      },
      "/openapi.json": {
        get: { summary: "This document", responses: { 200: { description: "OpenAPI 3.1", content: json({ type: "object" }) }, ...pick(401) } },
      },
      "/render/queue": {
        get: { summary: "Queue state, to decide whether to submit now", responses: { 200: { description: "Counts", content: json(ref("QueueStatus")) }, ...pick(401, 503) } },
      },
      "/render": {
        post: {
          summary: "Submit a render and return at once",
          requestBody: renderBody,
          responses: {
            202: { description: "Accepted: queued or running.", headers: { Location: { schema: { type: "string" } } }, content: json(ref("RenderAccepted")) },
            ...pick(400, 401, 413, 415, 429, 503),
          },
        },
      },
      "/render/stream": {
        post: {
          summary: "Submit a render and follow it as server-sent events",
          description:
            "Each event has an SSE `event:` name equal to its JSON data's `type`: the queue's `queued` and `running`, then the renderer's own events (`started`, `progress`, `warning`, `finished`, `failed`) with the request's `requestId` and `output` as the download URL. The stream ends after `finished` or `failed`. Closing the connection cancels the render, or removes it from the queue.",
          requestBody: renderBody,
          responses: {
            200: {
              description: "The event stream.",
              headers: { Location: { schema: { type: "string" }, description: "/render/{id}" } },
              content: {
                "text/event-stream": {
                  schema: { oneOf: Object.keys(EVENTS).map(ref) },
                },
              },
            },
            ...pick(400, 401, 413, 415, 429, 503),
          },
        },
      },
      "/render/{id}": {
        parameters: [idParameter],
        get: { summary: "State and progress of a render", responses: { 200: { description: "Status", content: json(ref("RenderStatus")) }, ...pick(401, 404, 503) } },
        delete: {
          summary: "Cancel a render, or take it out of the queue",
          description: "Returns once the render has stopped and cleaned up. Its state is then `cancelled`, or `completed`/`failed` if it ended first.",
          responses: { 200: { description: "The final status.", content: json(ref("RenderStatus")) }, ...pick(401, 404, 409, 503) },
        },
      },
      "/render/{id}/output": {
        parameters: [idParameter],
        get: {
          summary: "Download the output",
          description: "A video file with its content type, or for png-sequence a listing of its files.",
          parameters: [rangeHeader],
          responses: {
            200: {
              description: "The whole file, or the listing.",
              headers: fileHeaders,
              content: { ...binary(["video/mp4", "video/quicktime", "video/webm"]), ...json(ref("SequenceListing")) },
            },
            206: { description: "The requested range.", headers: partialHeaders, content: binary(["video/mp4", "video/quicktime", "video/webm"]) },
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
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Required on every route but /health when the server was started with --token or COMPOSE_TOKEN." },
      },
      schemas,
    },
  };
}
