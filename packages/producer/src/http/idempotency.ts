import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { StateStore } from "../state/state-store.js";
import { HttpError } from "./errors.js";

/** The header a client sends to make a POST safe to retry. */
export const IDEMPOTENCY_HEADER = "idempotency-key";

/** Tells the client its answer is the one an earlier request with the same key got. */
const REPLAYED_HEADER = "idempotent-replayed";

/** The header a replayed answer carries, for a stream that writes its own headers. */
export function replayHeader(reply: FastifyReply): Record<string, string> {
  const replayed = reply.getHeader(REPLAYED_HEADER);
  return replayed === undefined ? {} : { [REPLAYED_HEADER]: String(replayed) };
}

/** A key: 1 to 255 printable ASCII characters (a UUID, say). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** JSON with every object's keys in order: the same body however its keys were written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function headerKey(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !KEY.test(value)) {
    throw new HttpError(400, "invalid-request", "Idempotency-Key must be one header of 1 to 255 printable ASCII characters without spaces (a UUID, say)");
  }
  return value;
}

/**
 * Accepts a POST once per Idempotency-Key: `accept` runs for a key not seen within the last day
 * and its answer (the request's or batch's id) is kept for it; the same key with the same route
 * and body gives that answer again without accepting anything (Idempotent-Replayed: true), with another route
 * or body it is a 422. A request without the header is accepted as it is.
 */
export async function acceptOnce(request: FastifyRequest, reply: FastifyReply, store: StateStore | undefined, accept: () => Promise<string>): Promise<string> {
  const key = headerKey(request);
  if (key === undefined || store === undefined) return accept();
  const fingerprint = `${request.method} ${request.routeOptions.url} ${createHash("sha256").update(canonicalJson(request.body)).digest("hex")}`;
  const earlier = store.claimIdempotencyKey(key, fingerprint);
  if (earlier) {
    if (earlier.fingerprint !== fingerprint) {
      throw new HttpError(
        422,
        "idempotency-key-reused",
        `Idempotency-Key ${key} was sent within the last day with another request (another route or body); send a new key with a new request`,
      );
    }
    if (earlier.answer === null)
      throw new HttpError(409, "idempotency-key-in-use", `a request with Idempotency-Key ${key} is still being accepted; retry in a moment`);
    reply.header(REPLAYED_HEADER, "true");
    return earlier.answer;
  }
  try {
    const id = await accept();
    store.answerIdempotencyKey(key, id);
    return id;
  } catch (error) {
    store.releaseIdempotencyKey(key);
    throw error;
  }
}
