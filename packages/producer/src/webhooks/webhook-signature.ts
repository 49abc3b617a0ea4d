import { createHmac } from "node:crypto";

/** The headers a webhook's POST carries besides its JSON body. */
export const WEBHOOK_HEADERS = {
  /** The same for every attempt of one delivery: a receiver that has seen it may ignore a repeat. */
  delivery: "x-compose-delivery",
  /** What ended: `render` or `batch`. */
  event: "x-compose-event",
  /** Unix time in seconds when the attempt was signed; a receiver refuses old ones, so a POST cannot be replayed later. */
  timestamp: "x-compose-timestamp",
  /** `sha256=<hex>`: HMAC-SHA256 with the server's webhook secret over `${timestamp}.${body}`. */
  signature: "x-compose-signature",
} as const;

/** The signature header's value for one attempt: `sha256=` and the hex HMAC-SHA256 of `${timestamp}.${body}`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}
