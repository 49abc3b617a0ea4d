import type { ServerResponse } from "node:http";

/** Comment lines at this interval keep idle proxies from closing a stream that waits in the queue. */
const HEARTBEAT_MS = 15_000;

export interface EventStream {
  /** Sends one event: its `type` is the SSE event name, the whole object is the JSON data. */
  send<Event extends { type: string }>(event: Event): void;
  end(): void;
  /** Calls `fn` once when the connection closes, whoever closed it (at once if it already has). */
  onClose(fn: () => void): void;
}

/**
 * Opens a text/event-stream on a response no one has written to: the server's (taken over from
 * Fastify) and the preview's. With `retryMs`, a browser that loses the stream asks again after
 * that long instead of its own default.
 */
export function openEventStream(response: ServerResponse, headers: Record<string, string> = {}, { retryMs }: { retryMs?: number } = {}): EventStream {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    // nginx and similar buffer responses unless told not to, which would hold events back.
    "x-accel-buffering": "no",
    ...headers,
  });
  const write = (text: string) => {
    if (!response.writableEnded) response.write(text);
  };
  if (retryMs !== undefined) write(`retry: ${retryMs}\n\n`);
  const heartbeat = setInterval(() => write(": keep-alive\n\n"), HEARTBEAT_MS);
  response.once("close", () => clearInterval(heartbeat));
  return {
    send(event) {
      write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      clearInterval(heartbeat);
      if (!response.writableEnded) response.end();
    },
    onClose(fn) {
      if (response.closed) fn();
      else response.once("close", fn);
    },
  };
}
