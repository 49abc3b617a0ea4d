import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.js";

/** Probes and load balancers check liveness without holding the token. */
const OPEN_ROUTES = new Set(["/health"]);

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Requires `Authorization: Bearer <token>` on every route but the open ones, unknown routes included. */
export function requireBearerToken(app: FastifyInstance, token: string): void {
  const expected = digest(token);
  app.addHook("onRequest", async (request) => {
    if (OPEN_ROUTES.has(request.routeOptions.url ?? "")) return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
    if (!match) {
      throw new HttpError(401, "unauthorized", "this server requires a token: send Authorization: Bearer <token>", undefined, {
        "www-authenticate": 'Bearer realm="compose"',
      });
    }
    if (!timingSafeEqual(digest(match[1]!), expected)) {
      throw new HttpError(401, "unauthorized", "the bearer token is not valid", undefined, {
        "www-authenticate": 'Bearer realm="compose", error="invalid_token"',
      });
    }
  });
}
