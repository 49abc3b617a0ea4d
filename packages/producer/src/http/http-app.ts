import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { MAX_BODY_BYTES } from "../config/server-config.js";
import { errorBody, installErrorHandling, type ErrorHandling } from "./errors.js";
import { installJsonBodyParser } from "./json-body.js";

// What a server on this layer needs beside the app: compose preview's server is one.
export { HttpError } from "./errors.js";
export { openEventStream, type EventStream } from "./sse.js";
export { sendOpenedFile } from "./send-file.js";
export type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * The HTTP layer compose's servers stand on (the producer's and compose preview's): Fastify with
 * one body limit, JSON bodies parsed one way (nesting limited, 400 for a malformed one, 415 for
 * another type) and every refusal answered as `{error: {code, message}}`. Routes are the
 * caller's; a GET route answers HEAD only when it says so.
 */
export function createHttpApp(errors: ErrorHandling): FastifyInstance {
  // Fastify's own 503 while closing has another body; these servers answer in their own format.
  const app = Fastify({
    bodyLimit: MAX_BODY_BYTES,
    exposeHeadRoutes: false,
    return503OnClosing: false,
    // A path Fastify cannot decode never reaches the error handler: answered here, in the same shape.
    frameworkErrors: (error, _request, reply) => void (reply as FastifyReply).status(400).send(errorBody("invalid-url", error.message)),
  });
  installErrorHandling(app, errors);
  installJsonBodyParser(app);
  return app;
}
