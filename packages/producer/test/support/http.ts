import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  /** Raw body bytes, sent as they are (with `contentType`). */
  rawBody?: string | Buffer;
  contentType?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** One request on a fresh connection, so no connection outlives a test. */
export function request(url: string, options: RequestOptions = {}): Promise<Response> {
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) headers["content-type"] = options.contentType ?? "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? (payload === undefined ? "GET" : "POST"), headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        let json: unknown;
        // A HEAD answer names the type of a body it does not carry.
        if (String(res.headers["content-type"]).startsWith("application/json") && body.length > 0) json = JSON.parse(body.toString("utf8"));
        resolve({ status: res.statusCode!, headers: res.headers, body, json });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** One server-sent event: the `event:` name and the parsed `data:` line. */
export interface StreamEvent {
  event: string;
  data: any;
}

export interface EventStreamClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event received so far, in order. */
  events: StreamEvent[];
  /** The JSON body when the server refused to open the stream. */
  error?: any;
  /** Resolves with the first event of this type (already received or still to come). */
  next(type: string): Promise<StreamEvent>;
  /** Resolves with every event once the server ends the stream. */
  ended: Promise<StreamEvent[]>;
  /** Drops the connection, as a client that goes away does. */
  disconnect(): void;
}

/** POST /render/stream, reading events as they arrive. */
export function openStream(baseUrl: string, body: unknown, token?: string): Promise<EventStreamClient> {
  return openEventStream(`${baseUrl}/render/stream`, { body, token });
}

/** An event stream at `url`: a POST of `body` when there is one, else a GET; events are read as they arrive. */
export function openEventStream(url: string, options: { body?: unknown; token?: string } = {}): Promise<EventStreamClient> {
  const headers: Record<string, string> = options.body === undefined ? {} : { "content-type": "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.body === undefined ? "GET" : "POST", headers, agent: false }, (res) => {
      const events: StreamEvent[] = [];
      const waiters: Array<() => void> = [];
      let buffer = "";
      let raw = "";
      let finished = false;
      const ended = new Promise<StreamEvent[]>((resolveEnded) => {
        const finish = () => {
          finished = true;
          waiters.forEach((wake) => wake());
          resolveEnded(events);
        };
        res.on("end", finish);
        res.on("close", finish);
      });
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let split: number;
        while ((split = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
        }
        waiters.forEach((wake) => wake());
      });
      const client: EventStreamClient = {
        status: res.statusCode!,
        headers: res.headers,
        events,
        next(type) {
          return new Promise((resolveNext, rejectNext) => {
            const check = () => {
              const found = events.find((e) => e.event === type);
              if (found) resolveNext(found);
              else if (finished) rejectNext(new Error(`the stream ended without a ${type} event: ${JSON.stringify(events)}`));
              else return;
              waiters.splice(waiters.indexOf(check), 1);
            };
            waiters.push(check);
            check();
          });
        },
        ended,
        disconnect: () => req.destroy(),
      };
      if (String(res.headers["content-type"]).startsWith("application/json")) {
        res.on("end", () => resolve({ ...client, error: JSON.parse(raw) }));
      } else {
        resolve(client);
      }
    });
    req.on("error", reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

/** Polls `check` until it returns a value other than undefined. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
