import { Redis, type RedisOptions } from "ioredis";
import { withDeadline } from "@compose/renderer";
import { redactedUrl } from "../config/server-config.js";

/** The queue's Redis could not be reached when a process started. */
export class QueueConnectionError extends Error {
  override name = "QueueConnectionError";
}

/**
 * One Redis connection. BullMQ's blocking connections (workers, queue events) need
 * `maxRetriesPerRequest: null`, so commands wait through a Redis restart rather than fail.
 */
export function redisClient(url: string, name: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, ...options });
}

/** Resolves once Redis answers PING, or throws QueueConnectionError after `timeoutMs`. */
export async function checkReachable(url: string, timeoutMs = 5000): Promise<void> {
  // disconnectTimeout: after a refused connection, ioredis would otherwise keep the process alive 2 s.
  const client = redisClient(url, "compose:probe", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, disconnectTimeout: 50 });
  let lastError = "";
  client.on("error", (error: Error) => {
    lastError = error.message;
  });
  try {
    await withDeadline(
      client.connect().then(() => client.ping()),
      timeoutMs,
      () => {
        throw new Error(`no answer within ${timeoutMs / 1000} s`);
      },
    );
  } catch (error) {
    throw new QueueConnectionError(`cannot reach the queue at ${redactedUrl(url)}: ${lastError || (error as Error).message}`);
  } finally {
    client.disconnect();
  }
}

/**
 * The id of the newest event in a queue's event stream ("0" when it has none). A QueueEvents
 * started from it hears every later event; started from "$" it could miss those that arrive
 * before its first read.
 */
export async function lastEventId(client: Redis, eventsKey: string): Promise<string> {
  const newest = await client.xrevrange(eventsKey, "+", "-", "COUNT", 1);
  return newest[0]?.[0] ?? "0";
}

/** How long closing one connection or queue may take once its work is done; Redis may be gone. */
export const CLOSE_WAIT_MS = 1000;
