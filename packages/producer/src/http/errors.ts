import type { FastifyError, FastifyInstance } from "fastify";
import { MAX_BODY_BYTES } from "../config/server-config.js";
import { JobPayloadTooLargeError, QueueClosedError, QueueFullError, QueueUnavailableError } from "../queue/render-backend.js";

/** Every error response: `{error: {code, message, field?}}`, `field` when one request field is at fault. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

/** A refusal with its status code; the error handler turns it into the JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** The output's files were removed from the disk behind the server's back. */
export const outputGone = () => new HttpError(410, "output-gone", "the output is no longer on the server's disk");

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

/** Fastify's own refusals (body parsing), restated in this server's words. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "payload-too-large", message: `the request body is larger than ${MAX_BODY_BYTES / 1024} KiB` },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: "unsupported-media-type",
    message: "the request body must be JSON (Content-Type: application/json)",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "invalid-json", message: "the request body is empty; send a JSON object" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "invalid-json", message: "the request body is not valid JSON" },
};

function toHttpError(error: FastifyError | Error): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof QueueFullError) return new HttpError(429, "queue-full", `${error.message}; GET /render/queue shows the queue`);
  if (error instanceof QueueClosedError) return new HttpError(503, "shutting-down", error.message);
  if (error instanceof JobPayloadTooLargeError) return new HttpError(413, "payload-too-large", error.message);
  if (error instanceof QueueUnavailableError) return new HttpError(503, "queue-unavailable", error.message);
  const known = "code" in error ? FASTIFY_ERRORS[error.code] : undefined;
  if (known) return new HttpError(known.status, known.code, known.message);
  // A malformed JSON body arrives as JSON.parse's SyntaxError.
  if (error instanceof SyntaxError) return new HttpError(400, "invalid-json", `the request body is not valid JSON: ${error.message}`);
  const status = "statusCode" in error ? Number(error.statusCode) : 500;
  if (status >= 400 && status < 500) return new HttpError(status, "bad-request", error.message);
  return new HttpError(500, "internal-error", "the server failed to handle the request");
}

export function installErrorHandling(app: FastifyInstance, logError: (line: string) => void): void {
  app.setErrorHandler(async (error, request, reply) => {
    const http = toHttpError(error as FastifyError);
    if (http.code === "internal-error") logError(`${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return reply.status(http.status).headers(http.headers).send(errorBody(http.code, http.message, http.field));
  });
  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send(errorBody("unknown-route", `there is no ${request.method} ${request.url.split("?")[0]}; GET /openapi.json lists the routes`)),
  );
}
