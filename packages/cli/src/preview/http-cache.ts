import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A body that never changes under its URL, with the ETag that names it. */
export interface Cacheable {
  body: string;
  etag: string;
}

export function cacheable(body: string): Cacheable {
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"` };
}

/** Sends `body`, which the browser keeps and asks for again on every load with its ETag (answered 304 while it is the same). */
export function sendRevalidated(response: ServerResponse, type: string, body: string, etag: string): void {
  response.writeHead(200, { "Content-Type": type, "Cache-Control": "no-cache", ETag: etag, "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

/** Sends `content` for the browser to keep a year without asking again; a revalidation with its ETag gets 304. */
export function sendCacheable(request: IncomingMessage, response: ServerResponse, type: string, content: Cacheable): void {
  const headers = { "Cache-Control": "public, max-age=31536000, immutable", ETag: content.etag };
  if (request.headers["if-none-match"] === content.etag) return void response.writeHead(304, headers).end();
  response.writeHead(200, { ...headers, "Content-Type": type, "Content-Length": Buffer.byteLength(content.body) });
  response.end(content.body);
}
