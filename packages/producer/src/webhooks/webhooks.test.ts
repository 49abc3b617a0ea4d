/**
 * Webhooks over real HTTP: a receiver on 127.0.0.1 (which the server may reach only because its
 * operator allowed the host) checks each POST's signature, and fails the first attempts.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, request } from "../../test/support/http.js";
import { schemaProblems } from "../../test/support/openapi.js";
import { startServer, type TestServer } from "../../test/support/serve.js";
import { retryDelayMs, WEBHOOK_RETRY_FOR_MS } from "./webhook-sender.js";

const SECRET = "webhook-test-secret";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The signature checked as a receiver would: over `${timestamp}.${body}` with the shared secret. */
  signed: boolean;
}

/** A webhook receiver: each path answers the statuses it is given in turn, the last one from then on. */
function startReceiver(answers: Record<string, number[]>): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const timestamp = String(req.headers["x-compose-timestamp"]);
      const expected = Buffer.from(`sha256=${createHmac("sha256", SECRET).update(`${timestamp}.${body}`).digest("hex")}`);
      const given = Buffer.from(String(req.headers["x-compose-signature"]));
      received.push({ path: req.url!, headers: req.headers, body, signed: given.length === expected.length && timingSafeEqual(given, expected) });
      const statuses = answers[req.url!] ?? [404];
      res.writeHead(statuses.length > 1 ? statuses.shift()! : statuses[0]!).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server })),
  );
}

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver({ "/flaky": [500, 500, 200], "/batch": [200] });
  server = await startServer(["--allow-host", "127.0.0.1"], { COMPOSE_WEBHOOK_SECRET: SECRET });
});
afterAll(async () => {
  expect(await server.close()).toEqual([]);
  await new Promise((resolve) => receiver.server.close(resolve));
});

describe("a request's webhook", () => {
  it("is retried after a 500 until delivered, each attempt signed, with the final status and metadata as its body", async () => {
    const accepted = await request(`${server.url}/render`, {
      body: { composition: "tiny", quality: "draft", metadata: { order: 7 }, webhook: { url: `${receiver.url}/flaky` } },
    });
    expect(accepted.status).toBe(202);
    const id = accepted.json.requestId;
    expect((await request(`${server.url}/render/${id}`)).json.webhook).toEqual({
      url: `${receiver.url}/flaky`,
      attempts: 0,
      lastStatus: null,
      lastError: null,
      delivered: false,
      nextAttemptAt: null,
    });

    const status = await eventually(async () => {
      const current = (await request(`${server.url}/render/${id}`)).json;
      return current.webhook.delivered ? current : undefined;
    });
    expect(schemaProblems("RenderStatus", status)).toEqual([]);
    expect(status.webhook).toEqual({ url: `${receiver.url}/flaky`, attempts: 3, lastStatus: 200, lastError: null, delivered: true, nextAttemptAt: null });

    const posts = receiver.received.filter((post) => post.path === "/flaky");
    expect(posts.map((post) => post.signed)).toEqual([true, true, true]);
    expect(new Set(posts.map((post) => post.headers["x-compose-delivery"])).size).toBe(1);
    expect(posts.map((post) => post.headers["x-compose-event"])).toEqual(["render", "render", "render"]);
    const body = JSON.parse(posts[2]!.body);
    expect(schemaProblems("RenderStatus", body)).toEqual([]);
    expect(body).toMatchObject({ requestId: id, state: "completed", metadata: { order: 7 }, output: { url: `/render/${id}/output` } });
  });

  it("is refused with a 400 when its host is not allowed, or it is no http(s) URL", async () => {
    const loopback = await request(`${server.url}/render`, { body: { composition: "tiny", webhook: { url: "http://127.0.0.2:9/hook" } } });
    expect(loopback.status).toBe(400);
    expect(loopback.json.error).toEqual({
      code: "invalid-request",
      field: "webhook",
      message:
        "webhook.url http://127.0.0.2:9/hook is not allowed by this server's network policy (public, its --network): a loopback address; the operator may allow its host with --allow-host",
    });
    const ftp = await request(`${server.url}/render`, { body: { composition: "tiny", webhook: { url: "ftp://example.com/x" } } });
    expect(ftp.json.error).toMatchObject({ field: "webhook", message: "webhook.url must be an http or https URL (got ftp://example.com/x)" });
    const extra = await request(`${server.url}/render`, { body: { composition: "tiny", webhook: { url: `${receiver.url}/x`, secret: "s" } } });
    expect(extra.json.error).toMatchObject({ field: "webhook", message: "webhook.secret is not a field of webhook" });
  });

  it("is refused by a server without a webhook secret, saying how to set one", async () => {
    const plain = await startServer(["--allow-host", "127.0.0.1"]);
    try {
      const response = await request(`${plain.url}/render`, { body: { composition: "tiny", webhook: { url: `${receiver.url}/flaky` } } });
      expect(response.status).toBe(400);
      expect(response.json.error).toEqual({
        code: "invalid-request",
        field: "webhook",
        message: "webhook needs a server that signs its webhooks: start it with --webhook-secret, or set COMPOSE_WEBHOOK_SECRET",
      });
    } finally {
      expect(await plain.close()).toEqual([]);
    }
  });
});

describe("a batch's webhook", () => {
  it("is called once the batch has ended, with its summary and every row", async () => {
    const accepted = await request(`${server.url}/render/batch`, {
      body: { composition: "tiny", quality: "draft", rows: [{}, {}], metadata: { run: "b" }, webhook: { url: `${receiver.url}/batch` } },
    });
    expect(accepted.status).toBe(202);
    const { batchId, requestIds } = accepted.json;
    const post = await eventually(async () => receiver.received.find((each) => each.path === "/batch"), 60_000);
    expect(post.signed).toBe(true);
    expect(post.headers["x-compose-event"]).toBe("batch");
    const body = JSON.parse(post.body);
    expect(schemaProblems("BatchStatus", body)).toEqual([]);
    expect(body).toMatchObject({ batchId, state: "ended", total: 2, counts: { completed: 2 }, metadata: { run: "b" } });
    expect(body.rows.map((row: { requestId: string }) => row.requestId)).toEqual(requestIds);
    const status = await eventually(async () => {
      const current = (await request(`${server.url}/render/batch/${batchId}`)).json;
      return current.webhook.delivered ? current : undefined;
    });
    expect(status.webhook).toMatchObject({ attempts: 1, lastStatus: 200 });
    // The rows carry the batch's metadata, not its webhook: the batch is called once.
    expect((await request(`${server.url}/render/${requestIds[0]}`)).json).toMatchObject({ metadata: { run: "b" }, webhook: null });
  });
});

describe("the retry schedule", () => {
  it("doubles from 1 s to at most 60 s, and goes on for at least 10 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(WEBHOOK_RETRY_FOR_MS).toBe(600_000);
  });
});
