/**
 * POST /render/stream over real HTTP with real renders: with one slot, requests wait in FIFO
 * order and say where they stand; a client that goes away gives its slot to the next one.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, openStream, request, type EventStreamClient } from "../../test/support/http.js";
import { eventProblems, schemaProblems } from "../../test/support/openapi.js";
import { outputEntries, startServer, type TestServer } from "../../test/support/serve.js";

let server: TestServer | undefined;
afterEach(async () => {
  // Whatever a test did, the server it started leaves no browser or ffmpeg behind.
  if (server) expect(await server.close()).toEqual([]);
  server = undefined;
});

async function probe(file: string): Promise<{ codec_name: string; width: number; height: number }> {
  const { stdout } = await promisify(execFile)("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json", file]);
  return JSON.parse(stdout).streams[0];
}

const queue = async () => (await request(`${server!.url}/render/queue`)).json;

describe("one slot, three streams", () => {
  it("queues two with positions 1 and 2, counts them, and runs all three in FIFO order", async () => {
    server = await startServer(["--max-concurrent-renders", "1"]);
    const clients: EventStreamClient[] = [];
    // One at a time, so the order of arrival is known.
    for (let i = 0; i < 3; i++) clients.push(await openStream(server.url, { composition: "tiny", quality: "draft" }));
    const [first, second, third] = clients as [EventStreamClient, EventStreamClient, EventStreamClient];

    for (const client of clients) {
      expect(client.status).toBe(200);
      expect(client.headers["content-type"]).toMatch(/^text\/event-stream/);
    }
    expect((await second.next("queued")).data).toMatchObject({ type: "queued", position: 1 });
    expect((await third.next("queued")).data).toMatchObject({ type: "queued", position: 2 });
    // A render takes a second or more, so all three are still there.
    expect(await queue()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 2 });

    const ends = await Promise.all(clients.map((client) => client.ended));
    // The one that ran at once was never queued.
    expect(first.events.map((e) => e.event)).not.toContain("queued");
    for (const events of ends) {
      expect(events[events.length - 1], JSON.stringify(events[events.length - 1])).toMatchObject({ event: "finished" });
      for (const { event, data } of events) {
        expect(data.type).toBe(event);
        // Every event a real render sends is one the published document allows, field by field.
        expect(eventProblems(data), event).toEqual([]);
      }
    }
    // The third moved up when the first finished.
    expect(third.events.filter((e) => e.event === "queued").map((e) => e.data.position)).toEqual([2, 1]);

    // FIFO: each starts only after the one before it has completed.
    const completedAt = await Promise.all(
      clients.map(async (client) => Date.parse((await request(`${server!.url}/render/${client.events[0]!.data.requestId}`)).json.finishedAt)),
    );
    const startedAt = await Promise.all(
      clients.map(async (client) => Date.parse((await request(`${server!.url}/render/${client.events[0]!.data.requestId}`)).json.startedAt)),
    );
    expect(startedAt[1]).toBeGreaterThanOrEqual(completedAt[0]!);
    expect(startedAt[2]).toBeGreaterThanOrEqual(completedAt[1]!);
    expect(completedAt[0]).toBeLessThan(completedAt[1]!);
    expect(completedAt[1]).toBeLessThan(completedAt[2]!);

    // The renderer's own events, each with the request's id, and the output as its download URL.
    expect(third.events.map((e) => e.event).filter((name) => !["queued", "progress", "warning"].includes(name))).toEqual(["running", "started", "finished"]);
    const started = (await third.next("started")).data;
    expect(started).toMatchObject({ composition: "tiny", format: "mp4", fps: 30, totalFrames: 15, width: 320, height: 180 });
    expect(started.output).toBe(`/render/${started.requestId}/output`);
    const finished = (await third.next("finished")).data;
    expect(finished).toMatchObject({ format: "mp4", durationSeconds: 0.5, width: 320, height: 180, frames: 15, stats: { frames: 15 } });
    expect(finished.output).toBe(`/render/${finished.requestId}/output`);
    expect(finished.sizeBytes).toBeGreaterThan(0);
    expect(finished.elapsedMs).toBeGreaterThan(0);
    const progress = third.events.filter((e) => e.event === "progress").map((e) => e.data);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[progress.length - 1]).toMatchObject({ stage: "capture", frame: 15, totalFrames: 15, percent: 100 });

    const video = await probe(`${server.outputsDir}/${finished.requestId}.mp4`);
    const status = (await request(`${server.url}/render/${finished.requestId}`)).json;
    expect(schemaProblems("RenderStatus", status)).toEqual([]);
    expect(status.output).toEqual({
      url: finished.output,
      format: "mp4",
      size: finished.sizeBytes,
      duration: 0.5,
      width: 320,
      height: 180,
      frames: 15,
    });
    expect([video.codec_name, video.width, video.height]).toEqual(["h264", 320, 180]);
    expect(await queue()).toEqual({ maxConcurrentRenders: 1, activeRenders: 0, queuedRenders: 0 });
  });
});

describe("a client that disconnects", () => {
  it("cancels its running render, frees the slot for the next request and leaves no output", async () => {
    server = await startServer(["--max-concurrent-renders", "1"]);
    const holder = await openStream(server.url, { composition: "blocker.html" });
    const running = (await holder.next("running")).data;
    const waiting = await openStream(server.url, { composition: "tiny", quality: "draft" });
    await waiting.next("queued");
    expect(await queue()).toMatchObject({ activeRenders: 1, queuedRenders: 1 });

    holder.disconnect();
    expect((await waiting.next("started")).data.type).toBe("started");
    const events = await waiting.ended;
    expect(events[events.length - 1], JSON.stringify(events[events.length - 1])).toMatchObject({ event: "finished" });

    const status = (await request(`${server.url}/render/${running.requestId}`)).json;
    expect(status).toMatchObject({ state: "cancelled", error: { code: "cancelled" }, output: null });
    expect(schemaProblems("RenderStatus", status)).toEqual([]);
    expect(existsSync(`${server.outputsDir}/${running.requestId}.mp4`)).toBe(false);
    // Only the completed output: no staging directory of the cancelled render is left behind.
    expect(await outputEntries(server.outputsDir)).toEqual([`${events[0]!.data.requestId}.mp4`]);
    expect(await queue()).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
  });

  it("leaves the queue when it was still waiting, and the ones behind it move up", async () => {
    server = await startServer(["--max-concurrent-renders", "1"]);
    const holder = await openStream(server.url, { composition: "blocker.html" });
    await holder.next("running");
    const leaving = await openStream(server.url, { composition: "tiny" });
    const staying = await openStream(server.url, { composition: "tiny" });
    const leavingId = (await leaving.next("queued")).data.requestId;
    expect((await staying.next("queued")).data.position).toBe(2);

    leaving.disconnect();
    await eventually(async () => (staying.events.some((e) => e.event === "queued" && e.data.position === 1) ? true : undefined));
    expect(await queue()).toMatchObject({ activeRenders: 1, queuedRenders: 1 });
    expect((await request(`${server.url}/render/${leavingId}`)).json).toMatchObject({ state: "cancelled", startedAt: null });

    staying.disconnect();
    holder.disconnect();
    await eventually(async () => ((await queue()).activeRenders === 0 ? true : undefined));
    expect(await queue()).toEqual({ maxConcurrentRenders: 1, activeRenders: 0, queuedRenders: 0 });
  });
});

describe("a render that fails", () => {
  it("ends the stream with the renderer's failed event", async () => {
    server = await startServer();
    const client = await openStream(server.url, { composition: "odd" });
    const events = await client.ended;
    expect(events.map((e) => e.event)).toEqual(["running", "failed"]);
    expect(events[1]!.data).toMatchObject({ type: "failed", code: "invalid-composition" });
    expect(events[1]!.data.message).toMatch(/even width/);
    for (const { data } of events) expect(eventProblems(data), data.type).toEqual([]);
    const status = (await request(`${server.url}/render/${events[1]!.data.requestId}`)).json;
    expect(status).toMatchObject({ state: "failed", error: { code: "invalid-composition" } });
    expect(schemaProblems("RenderStatus", status)).toEqual([]);
  });
});

describe("what the stream says of refused variable values", () => {
  it("counts repeated warnings of one kind after the first ten", async () => {
    server = await startServer();
    const variables = Object.fromEntries(Array.from({ length: 15_000 }, (_, index) => [`key${index}`, 1]));
    const client = await openStream(server.url, { composition: "tiny", quality: "draft", variables });
    const events = await client.ended;
    expect(events.at(-1)!.event).toBe("finished");
    const warnings = events.filter((e) => e.event === "warning").map((e) => e.data);
    expect(warnings).toHaveLength(11);
    expect(warnings.slice(0, 10).every((warning) => warning.code === "undeclared" && /^"key\d+" is not a declared variable/.test(warning.message))).toBe(true);
    expect(warnings[10]).toMatchObject({ type: "warning", code: "undeclared", message: "and 14,990 more undeclared keys", more: 14_990 });
    for (const warning of warnings) expect(eventProblems(warning)).toEqual([]);
  });

  it("says a render stopped by strictVariables stopped, and uses no default", async () => {
    server = await startServer();
    const client = await openStream(server.url, { composition: "moods", variables: { mood: "angry" }, strictVariables: true });
    const events = await client.ended;
    expect(events.map((e) => e.event)).toEqual(["running", "failed"]);
    expect(events[1]!.data).toMatchObject({
      code: "invalid-variables",
      message: 'variables refused by strictVariables, so the render stopped: enum-out-of-range: "mood" must be one of "calm", "loud", got "angry"',
    });
  });
});
