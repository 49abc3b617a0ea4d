import type { FastifyError, FastifyInstance } from "fastify";
import { MAX_BODY_BYTES } from "../config/server-config.js";
import { JobPayloadTooLargeError, QueueClosedError, QueueFullError, QueueUnavailableError } from "../queue/render-backend.js";

/** One refused row of a batch, in an error's `rows`. */
export interface RefusedRow {
  row: number;
  message: string;
}

/** Every error response: `{error: {code, message, field?, rows?}}`, `field` when one request field is at fault, `rows` the refused rows of a batch. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string; rows?: RefusedRow[] };
}

/** A refusal with its status code; the error handler turns it into the JSON body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
    readonly rows?: RefusedRow[],
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** The output's files were removed from the disk behind the server's back. */
export const outputGone = () => new HttpError(410, "output-gone", "the output is no longer on the server's disk");

export function errorBody(code: string, message: string, field?: string, rows?: RefusedRow[]): ErrorBody {
  return { error: { code, message, ...(field === undefined ? {} : { field }), ...(rows === undefined ? {} : { rows }) } };
}

/** A size in KiB, or in MiB when it is a whole number of them. */
function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** Fastify's own refusals (body parsing), restated in this server's words. */
const FASTIFY_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: "payload-too-large", message: `the request body is larger than ${sizeText(MAX_BODY_BYTES)}` },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: "unsupported-media-type",
    message: "the request body must be JSON (Content-Type: application/json)",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: "invalid-json", message: "the request body is empty; send a JSON object" },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: "invalid-json", message: "the request body is not valid JSON" },
};

function toHttpError(error: FastifyError | Error, bodyLimit: number | undefined): HttpError {
  if (error instanceof HttpError) return error;
  // A route with a limit of its own (a batch's) names it, and the setting that raises it.
  if ("code" in error && error.code === "FST_ERR_CTP_BODY_TOO_LARGE" && bodyLimit !== undefined && bodyLimit !== MAX_BODY_BYTES) {
    return new HttpError(413, "payload-too-large", `the request body is larger than ${sizeText(bodyLimit)} (this server's --max-batch-body-mib)`);
  }
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

export interface ErrorHandling {
  /** Where failures of the server itself (500s) are reported, one line each. */
  logError: (line: string) => void;
  /** Where a client finds the routes there are, told with a request for one there is not ("GET /openapi.json lists the routes"). */
  routeGuide: string;
}

export function installErrorHandling(app: FastifyInstance, { logError, routeGuide }: ErrorHandling): void {
  app.setErrorHandler(async (error, request, reply) => {
    const http = toHttpError(error as FastifyError, request.routeOptions.bodyLimit);
    if (http.code === "internal-error")
      logError(`${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return reply
      .status(http.status)
      .headers(http.headers)
      .send(errorBody(http.code, http.message, http.field, http.rows));
  });
  app.setNotFoundHandler(async (request, reply) =>
    reply.status(404).send(errorBody("unknown-route", `there is no ${request.method} ${request.url.split("?")[0]}; ${routeGuide}`)),
  );
}
