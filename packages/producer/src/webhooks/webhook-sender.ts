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
  /** The delivery's id: X-Compose-Delivery on every attempt, and its record's key. */
  readonly id: string;
  status(): WebhookStatus;
  /** Sends the final status (once; later calls do nothing), retrying until it is delivered or WEBHOOK_RETRY_FOR_MS has passed. */
  send(body: object): void;
}

/** What outlives the process of a delivery: enough to show its status and to go on retrying after a restart. */
export interface DeliveryRecord {
  id: string;
  event: "render" | "batch";
  status: WebhookStatus;
  /** The body to send, once the render or batch has ended. */
  body: string | null;
  /** Date.now() of the first attempt. */
  firstAttemptAt: number | null;
  /** Delivered, or given up once the retries' time was over. */
  done: boolean;
}

/** Where each change of a delivery is written, so that a restart finds it as it was. */
export interface DeliveryJournal {
  save(record: DeliveryRecord): void;
}

/**
 * Delivers this server's webhooks: each a signed JSON POST (WEBHOOK_HEADERS), retried with
 * exponential backoff on a network failure or an answer that is not 2xx, under the operator's
 * network policy. With a journal, every delivery is recorded as it changes; `restore` takes one up
 * again after a restart.
 */
export class WebhookSender {
  private readonly controller = new AbortController();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: { secret: string; network: NetworkPolicy; journal?: DeliveryJournal }) {}

  /** A delivery to `url` of what ends (a `render` or a `batch`), nothing sent yet. */
  track(url: string, event: "render" | "batch"): WebhookDelivery {
    const status: WebhookStatus = { url, attempts: 0, lastStatus: null, lastError: null, delivered: false, nextAttemptAt: null };
    return this.delivery({ id: randomUUID(), event, status, body: null, firstAttemptAt: null, done: false });
  }

  /**
   * A delivery as its record left it. One whose body was being sent goes on: at least one more
   * attempt (the server may have been down for longer than the retries' time), then retries
   * while that time lasts.
   */
  restore(record: DeliveryRecord): WebhookDelivery {
    const delivery = this.delivery(record);
    if (record.body !== null && !record.done) this.schedule(record, Date.parse(record.status.nextAttemptAt ?? "") - Date.now() || 0);
    return delivery;
  }

  private delivery(record: DeliveryRecord): WebhookDelivery {
    this.options.journal?.save(record);
    return {
      id: record.id,
      status: () => ({ ...record.status }),
      send: (payload) => {
        if (record.body !== null) return;
        record.body = JSON.stringify(payload);
        record.firstAttemptAt = Date.now();
        // Written before the first attempt: a server killed during it sends the body again at its next start.
        this.options.journal?.save(record);
        void this.attempt(record);
      },
    };
  }

  private async attempt(record: DeliveryRecord): Promise<void> {
    const { signal } = this.controller;
    if (signal.aborted) return;
    const { status } = record;
    status.nextAttemptAt = null;
    status.attempts += 1;
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      [WEBHOOK_HEADERS.delivery]: record.id,
      [WEBHOOK_HEADERS.event]: record.event,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: webhookSignature(this.options.secret, timestamp, record.body!),
    };
    const outcome = await postWebhook(status.url, record.body!, headers, this.options.network, signal);
    // An attempt the shutdown cut short is not recorded: the next start makes it again.
    if (signal.aborted) return;
    status.lastStatus = "status" in outcome ? outcome.status : null;
    status.lastError = "error" in outcome ? outcome.error : null;
    status.delivered = "status" in outcome && outcome.status >= 200 && outcome.status < 300;
    const windowOver = Date.now() - (record.firstAttemptAt ?? 0) >= WEBHOOK_RETRY_FOR_MS;
    if (status.delivered || windowOver) {
      record.done = true;
      this.options.journal?.save(record);
      return;
    }
    this.schedule(record, retryDelayMs(status.attempts));
  }

  private schedule(record: DeliveryRecord, delayMs: number): void {
    const delay = Math.max(0, delayMs);
    record.status.nextAttemptAt = new Date(Date.now() + delay).toISOString();
    this.options.journal?.save(record);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(record);
    }, delay);
    this.timers.add(timer);
  }

  /** Stops every delivery: attempts under way are aborted, none is made later. */
  close(): void {
    this.controller.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
