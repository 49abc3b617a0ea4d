/**
 * `compose serve` killed with SIGKILL and started again on the same directories: every request id
 * answers as it did, the requests that were waiting or running are resumed in their order (or
 * fail as composition-changed when their composition changed meanwhile), batches and webhook
 * deliveries go on, an Idempotency-Key is honoured across the restart, and a second server on
 * the same state store is refused.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TINY } from "../../test/support/compositions.js";
import { eventually, request } from "../../test/support/http.js";
import { leftoverProcesses, spawnServe, startServer, type ServeProcess, type TestServer } from "../../test/support/serve.js";

const SECRET = "restart-test-secret";

let first: TestServer;
let again: ServeProcess | undefined;

/** The same directories and flags, a new process. */
function restart(extra: string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const dirs = ["--projects", first.projectsDir, "--outputs", first.outputsDir];
  return spawnServe(["--port", "0", ...dirs, "--shutdown-grace", "0", "--max-concurrent-renders", "1", ...extra], { env }).ready;
}

/** SIGKILL, as a crash or `kill -9`: nothing of the server runs on, its browsers neither. */
async function killHard(server: ServeProcess): Promise<void> {
  await server.stop("SIGKILL");
  await leftoverProcesses(server.tag, 0);
}

const status = async (base: string, id: string) => (await request(`${base}/render/${id}`)).json;
const post = async (base: string, body: object, headers: Record<string, string> = {}) => (await request(`${base}/render`, { body, headers })).json;
const ended = (base: string, id: string) => eventually(async () => ((await status(base, id)).state === "completed" ? true : undefined), 60_000);

beforeEach(async () => {
  first = await startServer(["--max-concurrent-renders", "1"], { COMPOSE_WEBHOOK_SECRET: SECRET });
  again = undefined;
});

afterEach(async () => {
  if (again) {
    await again.stop();
    await leftoverProcesses(again.tag);
  }
  await first.close();
});

describe("after kill -9 and a start on the same directories", () => {
  it("answers for every request: completed with their output, cancelled with their error, waiting and running ones resumed in order", async () => {
    const done = (await post(first.url, { composition: "tiny", quality: "draft", workers: 1 })).requestId as string;
    await ended(first.url, done);
    const cancelled = (await post(first.url, { composition: "blocker.html", quality: "draft", workers: 1 })).requestId as string;
    await request(`${first.url}/render/${cancelled}`, { method: "DELETE" });
    const running = (await post(first.url, { composition: "blocker.html", quality: "draft", workers: 1 })).requestId as string;
    const second = (await post(first.url, { composition: "tiny", quality: "draft", workers: 1, metadata: { n: 2 } })).requestId as string;
    const third = (await post(first.url, { composition: "tiny", quality: "draft", workers: 1, metadata: { n: 3 } })).requestId as string;
    await eventually(async () => ((await status(first.url, running)).state === "running" ? true : undefined));
    await killHard(first);

    again = await restart([], { COMPOSE_WEBHOOK_SECRET: SECRET });
    expect(await status(again.url, done)).toMatchObject({ state: "completed", output: { url: `/render/${done}/output`, frames: 15 } });
    const output = await request(`${again.url}/render/${done}/output`);
    expect(output.status).toBe(200);
    expect(output.headers["content-type"]).toBe("video/mp4");
    expect(await status(again.url, cancelled)).toMatchObject({ state: "cancelled", error: { code: "cancelled" } });
    expect(await status(again.url, running)).toMatchObject({ state: "running" });
    expect(await status(again.url, second)).toMatchObject({ state: "queued", position: 1, metadata: { n: 2 } });
    expect(await status(again.url, third)).toMatchObject({ state: "queued", position: 2 });
    expect((await request(`${again.url}/render/queue`)).json).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 2 });

    await request(`${again.url}/render/${running}`, { method: "DELETE" });
    await ended(again.url, third);
    const [secondStatus, thirdStatus] = [await status(again.url, second), await status(again.url, third)];
    expect(Date.parse(secondStatus.startedAt)).toBeLessThan(Date.parse(thirdStatus.startedAt));
    expect(secondStatus.state).toBe("completed");
  });

  it("fails a waiting request whose composition changed meanwhile with composition-changed, and renders none of it", async () => {
    const blocker = (await post(first.url, { composition: "blocker.html", quality: "draft", workers: 1 })).requestId as string;
    const waiting = (await post(first.url, { composition: "tiny", quality: "draft", workers: 1 })).requestId as string;
    await eventually(async () => ((await status(first.url, blocker)).state === "running" ? true : undefined));
    await killHard(first);
    await writeFile(join(first.projectsDir, "tiny", "index.html"), TINY.replace("#ff0000", "#00ff00"));

    again = await restart();
    expect(await status(again.url, waiting)).toMatchObject({ state: "failed", error: { code: "composition-changed" } });
    expect((await status(again.url, waiting)).error.message).toMatch(/^composition tiny changed while the server was down/);
    expect((await readdir(first.outputsDir)).filter((name) => !name.startsWith("."))).toEqual([]);
  });

  it("keeps batches: an ended one answers with its rows, one under way goes on and ends", async () => {
    const body = { composition: "moods", quality: "draft", workers: 1, rows: [{ mood: "calm" }, { mood: "loud" }] };
    const endedBatch = (await request(`${first.url}/render/batch`, { body })).json;
    await eventually(async () => ((await request(`${first.url}/render/batch/${endedBatch.batchId}`)).json.state === "ended" ? true : undefined), 60_000);
    const blocker = (await post(first.url, { composition: "blocker.html", quality: "draft", workers: 1 })).requestId as string;
    const waitingBatch = (await request(`${first.url}/render/batch`, { body })).json;
    await killHard(first);

    again = await restart();
    const kept = (await request(`${again.url}/render/batch/${endedBatch.batchId}`)).json;
    expect(kept).toMatchObject({ batchId: endedBatch.batchId, state: "ended", counts: { completed: 2 } });
    expect(kept.rows.map((row: { requestId: string }) => row.requestId)).toEqual(endedBatch.requestIds);
    expect((await request(`${again.url}/render/batch/${waitingBatch.batchId}`)).json).toMatchObject({ state: "active", counts: { queued: 2 } });
    await request(`${again.url}/render/${blocker}`, { method: "DELETE" });
    await eventually(async () => ((await request(`${again!.url}/render/batch/${waitingBatch.batchId}`)).json.state === "ended" ? true : undefined), 60_000);
    expect((await request(`${again.url}/render/batch/${waitingBatch.batchId}`)).json.counts).toMatchObject({ completed: 2 });
  });

  it("goes on delivering a webhook that was being retried, under the same delivery id", async () => {
    let answer = 500;
    const deliveries: string[] = [];
    const receiver: Server = createServer((req, res) => {
      req.resume().on("end", () => {
        deliveries.push(String(req.headers["x-compose-delivery"]));
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      await killHard(first);
      const port = (receiver.address() as AddressInfo).port;
      const withHost = ["--allow-host", "127.0.0.1"];
      const retrying = await restart(withHost, { COMPOSE_WEBHOOK_SECRET: SECRET });
      const id = (await post(retrying.url, { composition: "tiny", quality: "draft", workers: 1, webhook: { url: `http://127.0.0.1:${port}/hook` } }))
        .requestId as string;
      await eventually(async () => (deliveries.length >= 1 ? true : undefined), 60_000);
      await killHard(retrying);
      answer = 200;

      again = await restart(withHost, { COMPOSE_WEBHOOK_SECRET: SECRET });
      const webhook = await eventually(async () => {
        const shown = (await status(again!.url, id)).webhook;
        return shown?.delivered ? shown : undefined;
      });
      expect(webhook.attempts).toBeGreaterThanOrEqual(2);
      expect(new Set(deliveries).size).toBe(1);
    } finally {
      receiver.close();
    }
  });

  it("honours an Idempotency-Key: the same key and body answer the same request, another body is a 422", async () => {
    const body = { composition: "tiny", quality: "draft", workers: 1 };
    const key = { "idempotency-key": "order-1234" };
    const accepted = await request(`${first.url}/render`, { body, headers: key });
    expect(accepted.status).toBe(202);
    const repeated = await request(`${first.url}/render`, { body: { workers: 1, quality: "draft", composition: "tiny" }, headers: key });
    expect(repeated.status).toBe(202);
    expect(repeated.json.requestId).toBe(accepted.json.requestId);
    expect(repeated.headers["idempotent-replayed"]).toBe("true");
    await killHard(first);

    again = await restart();
    const afterRestart = await request(`${again.url}/render`, { body, headers: key });
    expect(afterRestart.json.requestId).toBe(accepted.json.requestId);
    const other = await request(`${again.url}/render`, { body: { ...body, quality: "standard" }, headers: key });
    expect(other.status).toBe(422);
    expect(other.json.error).toMatchObject({ code: "idempotency-key-reused" });
    const batch = { composition: "moods", quality: "draft", workers: 1, rows: [{ mood: "calm" }] };
    const batchKey = { "idempotency-key": "batch-1" };
    const firstBatch = (await request(`${again.url}/render/batch`, { body: batch, headers: batchKey })).json;
    const sameBatch = (await request(`${again.url}/render/batch`, { body: batch, headers: batchKey })).json;
    expect(sameBatch).toEqual(firstBatch);
    expect((await request(`${again.url}/render`, { body, headers: { "idempotency-key": "has a space" } })).status).toBe(400);
  });

  it("refuses a second server on the same state store, in one line", async () => {
    const second = await spawnServe(["--port", "0", "--projects", first.projectsDir, "--outputs", first.outputsDir]).exited;
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `error: the state store ${join(first.outputsDir, ".compose-server", "state.db")} is in use by another compose serve; stop that server, or give this one its own --state`,
    );
  });
});
