import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "@compose/producer/http";

/** A body that never changes under its URL, with the ETag that names it. */
export interface Cacheable {
  body: string;
  etag: string;
}

export function cacheable(body: string): Cacheable {
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"` };
}

/** Sends `body`, which the browser keeps and asks for again on every load with its ETag (answered 304 while it is the same). */
export function sendRevalidated(reply: FastifyReply, type: string, body: string, etag: string): FastifyReply {
  return reply.headers({ "cache-control": "no-cache", etag }).type(type).send(body);
}

/** Sends `content` for the browser to keep a year without asking again; a revalidation with its ETag gets 304. */
export function sendCacheable(request: FastifyRequest, reply: FastifyReply, type: string, content: Cacheable): FastifyReply {
  reply.headers({ "cache-control": "public, max-age=31536000, immutable", etag: content.etag });
  if (request.headers["if-none-match"] === content.etag) return reply.status(304).send();
  return reply.type(type).send(content.body);
}
