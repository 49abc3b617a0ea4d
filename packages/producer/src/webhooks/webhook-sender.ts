import { randomUUID } from "node:crypto";
import type { NetworkPolicy } from "@compose/renderer";
import type { WebhookStatus } from "../jobs/request-fields.js";
import { postWebhook } from "./webhook-post.js";
import { WEBHOOK_HEADERS, webhookSignature } from "./webhook-signature.js";

/** The wait after the first failed attempt; each later one doubles it, up to MAX_RETRY_DELAY_MS. */
const FIRST_RETRY_DELAY_MS = 1000;
const MAX_RETRY_DELAY_MS = 60_000;
/** Attempts go on until this long after the first one has passed: a receiver may be down for a deploy. */
export const WEBHOOK_RETRY_FOR_MS = 10 * 60 * 1000;

/** The wait before attempt `attempt + 1` (attempt counts from 1): 1 s, 2 s, 4 s, … at most 60 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1));
}

/** One webhook of a request or a batch: what its status shows, and the POST once there is something to send. */
export interface WebhookDelivery {
  status(): WebhookStatus;
  /** Sends the final status (once; later calls do nothing), retrying until it is delivered or WEBHOOK_RETRY_FOR_MS has passed. */
  send(body: object): void;
}

/**
 * Delivers this server's webhooks: each a signed JSON POST (WEBHOOK_HEADERS), retried with
 * exponential backoff on a network failure or an answer that is not 2xx, under the operator's
 * network policy.
 */
export class WebhookSender {
  private readonly controller = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: { secret: string; network: NetworkPolicy }) {}

  /** A delivery to `url` of what ends (a `render` or a `batch`), nothing sent yet. */
  track(url: string, event: "render" | "batch"): WebhookDelivery {
    const id = randomUUID();
    const state: WebhookStatus = { url, attempts: 0, lastStatus: null, lastError: null, delivered: false, nextAttemptAt: null };
    let body: string | undefined;
    let firstAttemptAt = 0;

    const attempt = async (): Promise<void> => {
      if (this.controller.signal.aborted) return;
      state.nextAttemptAt = null;
      state.attempts += 1;
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        [WEBHOOK_HEADERS.delivery]: id,
        [WEBHOOK_HEADERS.event]: event,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: webhookSignature(this.options.secret, timestamp, body!),
      };
      const outcome = await postWebhook(url, body!, headers, this.options.network, this.controller.signal);
      state.lastStatus = "status" in outcome ? outcome.status : null;
      state.lastError = "error" in outcome ? outcome.error : null;
      state.delivered = "status" in outcome && outcome.status >= 200 && outcome.status < 300;
      if (state.delivered || this.controller.signal.aborted || Date.now() - firstAttemptAt >= WEBHOOK_RETRY_FOR_MS) return;
      const delay = retryDelayMs(state.attempts);
      state.nextAttemptAt = new Date(Date.now() + delay).toISOString();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void attempt();
      }, delay);
      this.timers.add(timer);
    };

    return {
      status: () => ({ ...state }),
      send: (payload) => {
        if (body !== undefined) return;
        body = JSON.stringify(payload);
        firstAttemptAt = Date.now();
        void attempt();
      },
    };
  }

  /** Stops every delivery: attempts under way are aborted, none is made later. */
  close(): void {
    this.controller.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
