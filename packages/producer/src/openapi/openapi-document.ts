import { FRAME_RATES, OUTPUT_FORMATS, QUALITY_NAMES, renderOptionsSchema } from "@compose/core";
import { z } from "zod";

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

const requestId = { type: "string" };
const downloadUrl = {
  type: "string",
  description: "Where to download the output, relative to the server: /render/{id}/output. The renderer names a path on the machine that rendered; the server gives the URL instead.",
};
const outputFormat = { type: "string", enum: [...OUTPUT_FORMATS] };

/** An event of the stream: every field required, as each is always sent. */
function event(type: string, description: string, properties: Record<string, object>) {
  const all = { type: { const: type }, requestId, ...properties };
  return { type: "object", description, required: Object.keys(all), properties: all };
}

/** An event schema with fields sent only at times: not required. */
function withOptional(schema: ReturnType<typeof event>, properties: Record<string, object>) {
  return { ...schema, properties: { ...schema.properties, ...properties } };
}

const eventSchemas = {
  QueuedEvent: event("queued", "Sent before rendering begins when every slot is busy, and again each time the place changes. Position 1 runs next.", {
    position: { type: "integer", minimum: 1 },
  }),
  RunningEvent: event("running", "The request has a slot (it left the queue, or never waited); the renderer's `started` follows once the composition is loaded.", {}),
  StartedEvent: event("started", "The renderer has loaded the composition and begins to capture. In a chunked render, sent when the first chunk starts, with the whole render's `totalFrames` and `durationSeconds`.", {
    composition: { type: "string", description: "The composition's id (`data-composition-id`)." },
    output: downloadUrl,
    format: outputFormat,
    fps: { type: "integer", enum: [...FRAME_RATES] },
    quality: { type: "string", enum: [...QUALITY_NAMES] },
    width: { type: "integer" },
    height: { type: "integer" },
    durationSeconds: { type: "number" },
    durationSource: { type: "string", enum: ["data-duration", "clips", "timelines"], description: "Which part of the duration rule gave the duration." },
    totalFrames: { type: "integer" },
    workers: { type: "integer", description: "Browsers capturing in parallel (in a chunked render, for each chunk)." },
    captureMode: { type: "string", enum: ["beginframe", "screenshot"] },
  }),
  ProgressEvent: event("progress", "At most every 100 ms while capturing (`stage: capture`, frames summed over the chunks of a chunked render), and when the output is assembled.", {
    ...progressProperties(),
    framesPerSecond: { type: "number", description: "Frames captured per second since capture began." },
  }),
  WarningEvent: withOptional(
    event("warning", "A problem the render works around, such as an undeclared variable without strictVariables. Of each code the first ten are sent; the others are counted in one last warning of that code.", {
      code: { type: "string" },
      message: { type: "string" },
    }),
    { more: { type: "integer", minimum: 1, description: "On the warning that counts the others of its code: how many were not sent (`and 14,990 more undeclared keys`)." } },
  ),
  FinishedEvent: event("finished", "The last event of a successful render.", {
    output: downloadUrl,
    format: outputFormat,
    durationSeconds: { type: "number" },
    width: { type: "integer" },
    height: { type: "integer" },
    frames: { type: "integer" },
    sizeBytes: { type: "integer", description: "For png-sequence, all files together." },
    captureMs: { type: "number", description: "Time spent seeking and capturing (encoding runs alongside)." },
    elapsedMs: { type: "number", description: "Time from the start of the render to the committed output; time waiting in the queue is not counted." },
    stats: {
      type: "object",
      description: "Where capture time went, summed over the browsers (and chunks).",
      required: ["frames", "reused", "seekMs", "captureMs", "replayedFrames", "replayMs"],
      properties: {
        frames: { type: "integer" },
        reused: { type: "integer", description: "Frames whose image was reused because the seek changed nothing." },
        seekMs: { type: "number" },
        captureMs: { type: "number" },
        replayedFrames: { type: "integer", description: "Frames played without capture to give a page that starts after frame 0 its history." },
        replayMs: { type: "number" },
      },
    },
    history: {
      type: "string",
      enum: ["replay", "skip"],
      description:
        "How workers and chunks that start after frame 0 got there: `replay` when the composition builds its state frame by frame (they played every frame before their first), `skip` when its state is a function of time.",
    },
  }),
  FailedEvent: event(
    "failed",
    "The last event of a failed or cancelled render. `code` is the renderer's (`invalid-composition`, `invalid-variables`, `not-ready`, `page-error`, `page-hung`, `page-crashed`, `left-composition`, `limit-exceeded`, `encode-failed`, `internal-error`, ...) or `cancelled`.",
    {
      code: { type: "string" },
      message: { type: "string" },
      problems: {
        type: "array",
        description: "What went wrong, in the order it did, each with its code: the cause first (a script that failed to load), then what may follow from it (a page error). One entry when the failure has a single cause.",
        items: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } },
      },
    },
  ),
};

function progressProperties() {
  return {
    stage: { type: "string", enum: ["capture", "assemble"] },
    frame: { type: "integer", description: "Frames captured so far." },
    totalFrames: { type: "integer" },
    percent: { type: "number", minimum: 0, maximum: 100 },
  };
}

function outputFacts() {
  return {
    format: outputFormat,
    size: { type: "integer", description: "Bytes; for png-sequence, all files together." },
    duration: { type: "number", description: "Seconds." },
    width: { type: "integer" },
    height: { type: "integer" },
    frames: { type: "integer" },
  };
}

const nullable = (schema: object) => ({ oneOf: [schema, { type: "null" }] });

const schemas = {
  RenderRequest: renderRequestSchema(),
  QueueStatus: {
    type: "object",
    required: ["maxConcurrentRenders", "activeRenders", "queuedRenders"],
    additionalProperties: false,
    properties: {
      maxConcurrentRenders: { type: "integer", minimum: 1, maximum: 10 },
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
  RenderProgress: { type: "object", required: ["stage", "frame", "totalFrames", "percent"], properties: progressProperties() },
  RenderOutput: {
    type: "object",
    required: ["url", ...Object.keys(outputFacts())],
    properties: { url: { type: "string", description: "Where to download it, relative to the server: /render/{id}/output." }, ...outputFacts() },
  },
  RenderStatus: {
    type: "object",
    required: ["requestId", "state", "composition", "format", "position", "progress", "createdAt", "startedAt", "finishedAt", "output", "error"],
    properties: {
      requestId: { type: "string" },
      state: { type: "string", enum: ["queued", "running", "completed", "failed", "cancelled"] },
      composition: { type: "string", description: "As the request named it." },
      format: { type: "string", enum: ["mp4", "mov", "webm", "png-sequence"] },
      position: nullable({ type: "integer", minimum: 1, description: "Place in the queue while queued." }),
      progress: nullable(ref("RenderProgress")),
      createdAt: { type: "string", format: "date-time" },
      startedAt: nullable({ type: "string", format: "date-time" }),
      finishedAt: nullable({ type: "string", format: "date-time" }),
      output: nullable(ref("RenderOutput")),
      error: nullable({ type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } }),
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
  ...eventSchemas,
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
                  schema: { oneOf: Object.keys(eventSchemas).map(ref) },
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
