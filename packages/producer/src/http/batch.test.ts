/**
 * POST /render/batch and its stream, status and cancellation, over real HTTP with real renders:
 * every row a request in the FIFO queue, every row checked before any is queued.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, openEventStream, request } from "../../test/support/http.js";
import { documentedStatuses, eventProblems, schemaProblems } from "../../test/support/openapi.js";
import { startServer, type TestServer } from "../../test/support/serve.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--max-concurrent-renders", "1", "--max-queue", "2", "--max-batch-rows", "4", "--max-batch-body-mib", "1"]);
});
afterAll(async () => {
  expect(await server.close()).toEqual([]);
});

const post = (path: string, body: unknown) => request(`${server.url}${path}`, { body });
const get = async (path: string) => (await request(`${server.url}${path}`)).json;

/** The response has `status`, and the OpenAPI document lists that status for the operation. */
function expectStatus(response: { status: number; json: any }, status: number, method: string, template: string): void {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  expect(documentedStatuses(method, template)).toContain(status);
}

async function ended(batchId: string): Promise<any> {
  return eventually(async () => {
    const status = await get(`/render/batch/${batchId}`);
    return status.state === "ended" ? status : undefined;
  }, 60_000);
}

describe("POST /render/batch", () => {
  it("queues one request per row, names the outputs by the template, and sums the rows' states, a failed row among them", async () => {
    const accepted = await post("/render/batch", {
      composition: "moods",
      quality: "draft",
      strictVariables: true,
      output: "{index}-{mood}.{ext}",
      metadata: { campaign: "spring" },
      rows: [{ mood: "calm" }, { mood: "angry" }, { mood: "loud" }],
    });
    expectStatus(accepted, 202, "POST", "/render/batch");
    expect(schemaProblems("BatchAccepted", accepted.json)).toEqual([]);
    const { batchId, requestIds } = accepted.json;
    expect(accepted.headers.location).toBe(`/render/batch/${batchId}`);
    expect(requestIds).toHaveLength(3);

    const status = await ended(batchId);
    expect(schemaProblems("BatchStatus", status)).toEqual([]);
    expect(status).toMatchObject({ composition: "moods", format: "mp4", total: 3, metadata: { campaign: "spring" }, webhook: null });
    expect(status.counts).toEqual({ queued: 0, running: 0, completed: 2, failed: 1, cancelled: 0 });
    expect(status.rows.map((row: any) => [row.row, row.requestId, row.state, row.outputName])).toEqual([
      [1, requestIds[0], "completed", "1-calm.mp4"],
      // The template takes the value the render would use: the default in place of one refused.
      [2, requestIds[1], "failed", "2-calm.mp4"],
      [3, requestIds[2], "completed", "3-loud.mp4"],
    ]);
    expect(status.rows[0]).toMatchObject({ output: `/render/${requestIds[0]}/output`, error: null, metadata: { campaign: "spring" } });
    expect(status.rows[1]).toMatchObject({ output: null, error: { code: "invalid-variables" } });
    expect((await readdir(server.outputsDir)).filter((name) => name.endsWith(".mp4")).sort()).toEqual(["1-calm.mp4", "3-loud.mp4"]);

    // Each row is a request of its own, that knows its batch.
    const row = await get(`/render/${requestIds[2]}`);
    expect(schemaProblems("RenderStatus", row)).toEqual([]);
    expect(row).toMatchObject({ state: "completed", outputName: "3-loud.mp4", metadata: { campaign: "spring" }, batch: { id: batchId, row: 3 } });
    const download = await request(`${server.url}${row.output.url}`);
    expect([download.status, download.headers["content-length"]]).toEqual([200, String(row.output.size)]);
  });

  it("runs its rows in order behind requests that came first, each a request of the FIFO queue", async () => {
    const first = await post("/render", { composition: "tiny", quality: "draft" });
    const accepted = await post("/render/batch", { composition: "tiny", quality: "draft", rows: [{}, {}] });
    expectStatus(accepted, 202, "POST", "/render/batch");
    const status = await ended(accepted.json.batchId);
    const single = await get(`/render/${first.json.requestId}`);
    const rows = await Promise.all(status.rows.map((row: any) => get(`/render/${row.requestId}`)));
    expect(Date.parse(rows[0].startedAt)).toBeGreaterThanOrEqual(Date.parse(single.finishedAt));
    expect(Date.parse(rows[1].startedAt)).toBeGreaterThanOrEqual(Date.parse(rows[0].finishedAt));
    expect(rows.map((row) => existsSync(join(server.outputsDir, `${row.requestId}.mp4`)))).toEqual([true, true]);
  });
});

describe("POST /render/batch/stream", () => {
  it("streams every row's events with its row and request id, then batch-finished summing the states", async () => {
    const client = await openEventStream(`${server.url}/render/batch/stream`, { body: { composition: "tiny", quality: "draft", rows: [{}, {}] } });
    expect(client.status).toBe(200);
    expect(client.headers.location).toMatch(/^\/render\/batch\/[0-9a-f-]{36}$/);
    const events = await client.ended;
    for (const { event, data } of events) {
      expect(data.type).toBe(event);
      expect(eventProblems(data), event).toEqual([]);
    }
    const last = events[events.length - 1]!;
    expect(last.data).toMatchObject({ type: "batch-finished", total: 2, counts: { completed: 2, failed: 0, cancelled: 0, queued: 0, running: 0 } });
    expect(client.headers.location).toBe(`/render/batch/${last.data.batchId}`);
    const rowEvents = events.slice(0, -1).map((event) => event.data);
    const ids = [...new Set(rowEvents.map((event) => event.requestId))];
    expect(ids).toHaveLength(2);
    for (const [index, id] of ids.entries()) {
      const own = rowEvents.filter((event) => event.requestId === id);
      expect(own.every((event) => event.row === index + 1)).toBe(true);
      expect(own[own.length - 1].type).toBe("finished");
    }
    // The second row waited for the first: it was told its place once.
    expect(rowEvents.filter((event) => event.type === "queued").map((event) => event.row)).toEqual([2]);
  });

  it("cancels the rows that have not ended when its client goes away", async () => {
    const client = await openEventStream(`${server.url}/render/batch/stream`, { body: { composition: "blocker.html", rows: [{}, {}] } });
    await client.next("running");
    const batchId = client.headers.location!.split("/").pop()!;
    client.disconnect();
    const status = await ended(batchId);
    expect(status.counts).toMatchObject({ cancelled: 2, queued: 0, running: 0 });
    expect(await get("/render/queue")).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
  });
});

describe("DELETE /render/batch/{id}", () => {
  it("cancels the rows that have not ended, running and waiting, and answers with the batch ended", async () => {
    const accepted = await post("/render/batch", { composition: "blocker.html", rows: [{}, {}, {}] });
    expectStatus(accepted, 202, "POST", "/render/batch");
    const { batchId, requestIds } = accepted.json;
    await eventually(async () => ((await get(`/render/${requestIds[0]}`)).state === "running" ? true : undefined));
    expect(await get("/render/queue")).toMatchObject({ activeRenders: 1, queuedRenders: 2 });

    const cancelled = await request(`${server.url}/render/batch/${batchId}`, { method: "DELETE" });
    expectStatus(cancelled, 200, "DELETE", "/render/batch/{id}");
    expect(cancelled.json).toMatchObject({ state: "ended", counts: { cancelled: 3, queued: 0, running: 0 } });
    expect(await get("/render/queue")).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
    expectStatus(await request(`${server.url}/render/batch/${batchId}`, { method: "DELETE" }), 409, "DELETE", "/render/batch/{id}");
    expectStatus(await request(`${server.url}/render/batch/00000000-0000-4000-8000-000000000000`), 404, "GET", "/render/batch/{id}");
  });
});

describe("refusals: nothing is queued", () => {
  it("lists every refused row by number, in the words a single request is told", async () => {
    const single = await post("/render", { composition: "moods", variables: 5 });
    expect(single.status).toBe(400);
    const refused = await post("/render/batch", { composition: "moods", rows: [{ mood: "calm" }, 5, [], { mood: "loud" }] });
    expectStatus(refused, 400, "POST", "/render/batch");
    expect(refused.json.error).toMatchObject({ code: "invalid-request", field: "rows" });
    expect(refused.json.error.rows).toEqual([
      { row: 2, message: single.json.error.message },
      { row: 3, message: "variables must be a JSON object mapping variable ids to values (got [])" },
    ]);
    expect(refused.json.error.message).toBe(
      `2 rows refused, so nothing was queued: row 2: ${single.json.error.message}; row 3: ${refused.json.error.rows[1].message}`,
    );
    expect(await get("/render/queue")).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
  });

  it("refuses two rows naming one file, naming both rows", async () => {
    const refused = await post("/render/batch", { composition: "moods", output: "{mood}.{ext}", rows: [{ mood: "calm" }, { mood: "loud" }, {}] });
    expectStatus(refused, 400, "POST", "/render/batch");
    expect(refused.json.error).toMatchObject({
      field: "output",
      message: "row 1 and row 3 would both write calm.mp4: put {index} or a variable that differs in output",
    });
  });

  it("refuses a template that names nothing, or names an output no request may have", async () => {
    const unknown = await post("/render/batch", { composition: "moods", output: "{row}.{ext}", rows: [{}] });
    expect(unknown.json.error).toMatchObject({
      field: "output",
      message: "output {row}.{ext} names {row}, which is not {index}, {ext} or a declared variable ({mood})",
    });
    const noExtension = await post("/render/batch", { composition: "moods", output: "{index}", rows: [{}, {}] });
    expect(noExtension.json.error.rows).toEqual([
      { row: 1, message: "output makes 1, which must end in .mp4 for format mp4" },
      { row: 2, message: "output makes 2, which must end in .mp4 for format mp4" },
    ]);
    const directory = await post("/render/batch", { composition: "moods", output: "../{index}.{ext}", rows: [{}] });
    expect(directory.json.error).toMatchObject({
      field: "output",
      message: "output ../{index}.{ext} must name files in the outputs directory, without directories",
    });
  });

  it("answers 413 beyond the server's row limit and body limit, in the server's error shape", async () => {
    const rows = await post("/render/batch", { composition: "tiny", rows: [{}, {}, {}, {}, {}] });
    expectStatus(rows, 413, "POST", "/render/batch");
    expect(rows.json.error).toEqual({
      code: "payload-too-large",
      field: "rows",
      message: "the batch has 5 rows, over this server's limit of 4 (its --max-batch-rows)",
    });
    const body = await post("/render/batch/stream", { composition: "tiny", rows: [{ text: "x".repeat(1024 * 1024) }] });
    expectStatus(body, 413, "POST", "/render/batch/stream");
    expect(body.json.error).toEqual({ code: "payload-too-large", message: "the request body is larger than 1 MiB (this server's --max-batch-body-mib)" });
    // A single request keeps its own, smaller limit.
    const single = await post("/render", { composition: "tiny", variables: { text: "x".repeat(300 * 1024) } });
    expect(single.json.error.message).toBe("the request body is larger than 256 KiB");
  });

  it("answers 429 when the rows that would wait do not fit in the queue", async () => {
    const full = await post("/render/batch", { composition: "tiny", rows: [{}, {}, {}, {}] });
    expectStatus(full, 429, "POST", "/render/batch");
    expect(full.json.error.message).toBe(
      "the queue has no room for this batch: 3 of its 4 rows would wait behind 0 waiting requests, and 2 may wait (the server's --max-queue); retry later, or send fewer rows; GET /render/queue shows the queue",
    );
    expect(await get("/render/queue")).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
  });
});
