/**
 * Following any request by id (GET /render/{id}/events), and the request's own fields:
 * `metadata` echoed wherever the request is told of, `outputName` naming its file.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, openEventStream, request } from "../../test/support/http.js";
import { documentedStatuses, eventProblems, schemaProblems } from "../../test/support/openapi.js";
import { startServer, type TestServer } from "../../test/support/serve.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--max-concurrent-renders", "1"]);
});
afterAll(async () => {
  expect(await server.close()).toEqual([]);
});

const post = (body: unknown) => request(`${server.url}/render`, { body });
const status = async (id: string) => (await request(`${server.url}/render/${id}`)).json;
const stateOf = (id: string, state: string) => eventually(async () => ((await status(id)).state === state ? true : undefined), 30_000);

describe("GET /render/{id}/events", () => {
  it("replays a finished request from its start to its end, keeping the latest progress, with the request's metadata on every event", async () => {
    const accepted = await post({ composition: "tiny", quality: "draft", metadata: { order: 42, tags: ["a", "b"] } });
    const id = accepted.json.requestId;
    await stateOf(id, "completed");

    const client = await openEventStream(`${server.url}/render/${id}/events`);
    expect(client.status).toBe(200);
    const events = await client.ended;
    expect(events.map((event) => event.event)).toEqual(["running", "started", "progress", "finished"]);
    for (const { event, data } of events) {
      expect(eventProblems(data), event).toEqual([]);
      expect(data).toMatchObject({ requestId: id, metadata: { order: 42, tags: ["a", "b"] } });
    }
    const final = await status(id);
    // Of the progress events, the latest: the one the status shows.
    expect(events[2]!.data).toMatchObject(final.progress);
    expect(schemaProblems("RenderStatus", final)).toEqual([]);
    expect(final).toMatchObject({ metadata: { order: 42, tags: ["a", "b"] }, outputName: `${id}.mp4`, batch: null, webhook: null });
  });

  it("follows a running request live for any number of listeners; one that goes away cancels nothing", async () => {
    const id = (await post({ composition: "blocker.html" })).json.requestId;
    await stateOf(id, "running");
    const [leaving, staying] = await Promise.all([openEventStream(`${server.url}/render/${id}/events`), openEventStream(`${server.url}/render/${id}/events`)]);
    expect((await leaving.next("running")).data.requestId).toBe(id);
    expect((await staying.next("running")).data.requestId).toBe(id);

    leaving.disconnect();
    await leaving.ended;
    // Still running: a listener is not the request's owner.
    expect((await request(`${server.url}/render/queue`)).json).toMatchObject({ activeRenders: 1 });
    expect((await status(id)).state).toBe("running");

    await request(`${server.url}/render/${id}`, { method: "DELETE" });
    const events = await staying.ended;
    expect(events[events.length - 1]!.data).toMatchObject({ type: "failed", code: "cancelled" });
  });

  it("is a 404 for a request the server does not know", async () => {
    const response = await request(`${server.url}/render/00000000-0000-4000-8000-000000000000/events`);
    expect(response.status).toBe(404);
    expect(documentedStatuses("GET", "/render/{id}/events")).toContain(404);
    expect(response.json.error.code).toBe("unknown-render");
  });
});

describe("metadata", () => {
  it.each([
    ["an array", ["a"], 'metadata must be a JSON object of the client\'s own (got ["a"])'],
    ["too large", { text: "x".repeat(5000) }, "metadata is 5011 bytes as JSON, over the limit of 4096"],
    ["too deep", { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } }, "metadata must be a JSON object nested at most 8 levels deep"],
  ])("refuses %s with a 400 naming the field", async (_, metadata, message) => {
    const response = await post({ composition: "tiny", metadata });
    expect(response.status).toBe(400);
    expect(response.json.error).toEqual({ code: "invalid-request", field: "metadata", message });
  });
});

describe("outputName", () => {
  it("names the output inside the outputs directory; the request id stays the key of every URL", async () => {
    const accepted = await post({ composition: "tiny", quality: "draft", outputName: "welcome-ada.mp4" });
    expect(accepted.status).toBe(202);
    const id = accepted.json.requestId;
    await stateOf(id, "completed");
    const final = await status(id);
    expect(final).toMatchObject({ outputName: "welcome-ada.mp4", output: { url: `/render/${id}/output` } });
    expect(existsSync(join(server.outputsDir, "welcome-ada.mp4"))).toBe(true);
    expect(existsSync(join(server.outputsDir, `${id}.mp4`))).toBe(false);
    const download = await request(`${server.url}/render/${id}/output`);
    expect([download.status, download.body.length]).toEqual([200, final.output.size]);
  });

  it("may not be written by two requests at once: 409 while the first is under way, accepted once it has ended", async () => {
    const holder = (await post({ composition: "blocker.html", outputName: "held.mp4" })).json.requestId;
    const refused = await post({ composition: "tiny", outputName: "held.mp4" });
    expect(refused.status).toBe(409);
    expect(documentedStatuses("POST", "/render")).toContain(409);
    expect(refused.json.error).toEqual({
      code: "output-name-taken",
      field: "outputName",
      message: `outputName held.mp4 is being written by render ${holder}, which is running: choose another name, or wait until that render has ended`,
    });
    await request(`${server.url}/render/${holder}`, { method: "DELETE" });
    const accepted = await post({ composition: "tiny", quality: "draft", outputName: "held.mp4" });
    expect(accepted.status).toBe(202);
    await stateOf(accepted.json.requestId, "completed");
  });

  it.each([
    ["../escape.mp4", "outputName ../escape.mp4 must be a file name in the outputs directory, without directories"],
    ["/tmp/x.mp4", "outputName /tmp/x.mp4 must be a name inside the outputs directory, not an absolute path"],
    ["..mp4", "outputName ..mp4 may not contain .."],
    [".hidden.mp4", "outputName .hidden.mp4 may not start with a dot: hidden names in the outputs directory are the server's"],
    ["a b.mp4", "outputName a b.mp4 may hold only letters, digits, ., _ and -, and must start with a letter or digit"],
    ["clip.mov", "outputName clip.mov must end in .mp4 for format mp4"],
  ])("refuses %s with a 400 naming the field", async (outputName, message) => {
    const response = await post({ composition: "tiny", outputName });
    expect(response.status).toBe(400);
    expect(response.json.error).toEqual({ code: "invalid-request", field: "outputName", message });
  });
});
