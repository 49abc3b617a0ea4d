/**
 * The distributed queue, for real: a redis-server, two `compose serve --queue` processes (one
 * splitting renders into chunks, one not) and `compose worker` processes sharing one projects and
 * one outputs directory. Chunked renders match single-process renders frame for frame, a worker
 * killed with SIGKILL in the middle of a chunk does not lose the render, the concurrency limit
 * holds across three workers, and a job input over 256 KiB is refused before it is queued.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { render } from "@compose/renderer";
import { validateRenderOptions } from "@compose/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  audioStreamMd5,
  decodeFrames,
  findRedisServer,
  leftoversOf,
  maxOverlap,
  startRedis,
  startWorker,
  type RedisServer,
  type WorkerProcess,
} from "../../test/support/cluster.js";
import { eventually, openStream, request, type EventStreamClient } from "../../test/support/http.js";
import { eventProblems } from "../../test/support/openapi.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../../test/support/serve.js";

const REDIS_SERVER = findRedisServer();
if (!REDIS_SERVER) {
  console.warn("SKIPPED: the distributed queue tests need redis-server (apt-get install redis-server; scripts/setup.sh installs it)");
}

/** A 320x180 composition: a box crossing the stage (every frame differs), and a tone from 0.2 s to 0.8 s. */
function moving(id: string, seconds: number, audio: boolean): string {
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<style>
  * { margin: 0; padding: 0; }
  #stage { position: relative; width: 320px; height: 180px; overflow: hidden; background: #204080; }
  #box { position: absolute; left: 0; top: 50px; width: 60px; height: 80px; background: #ff4000; animation: cross ${seconds}s linear forwards; }
  @keyframes cross { from { left: 0; transform: rotate(0deg); } to { left: 260px; transform: rotate(180deg); } }
</style>
</head>
<body>
<div id="stage" data-composition-id="${id}" data-width="320" data-height="180" data-duration="${seconds}">
  <div id="box"></div>
  ${audio ? `<audio id="tone" src="tone.wav" data-start="0.2" data-duration="0.6"></audio>` : ""}
</div>
</body>
</html>
`;
}

/** Holds its slot until cancelled: the first seek waits on a promise that never settles. */
const BLOCKER = `<!doctype html>
<html><head><meta charset="utf-8"><style>* { margin: 0; } #stage { width: 320px; height: 180px; background: #204080; }</style></head>
<body><div id="stage" data-composition-id="blocker" data-width="320" data-height="180" data-duration="0.5"></div>
<script>__compose.onSeek(() => new Promise(() => {}));</script></body></html>
`;

const WIDTH = 320;
const HEIGHT = 180;
const STALL_TIMEOUT = "3";

/** Every frame of an output: a video file, or a png-sequence directory. */
function framesOf(output: string, format: "mp4" | "png-sequence"): Buffer[] {
  const input = format === "png-sequence" ? ["-i", join(output, "frame_%06d.png")] : ["-i", output];
  return decodeFrames(input, WIDTH, HEIGHT);
}

/** Indexes of the frames that differ (an empty list when both outputs have the same frames). */
function differentFrames(actual: Buffer[], expected: Buffer[]): number[] {
  expect(actual.length).toBe(expected.length);
  return expected.flatMap((frame, i) => (frame.equals(actual[i]!) ? [] : [i]));
}

async function statusOf(base: string, id: string) {
  return (await request(`${base}/render/${id}`)).json;
}

describe.skipIf(!REDIS_SERVER)("the distributed queue: compose serve --queue and compose worker on Redis", () => {
  let redis: RedisServer;
  let root: string;
  let projectsDir: string;
  let outputsDir: string;
  let referenceDir: string;
  /** Splits every render into chunks of 10 frames. */
  let chunked: ServeProcess;
  /** Renders each request as one task. */
  let whole: ServeProcess;
  const workers: WorkerProcess[] = [];
  const everyWorker: WorkerProcess[] = [];

  const workerArgs = () => [
    "--queue",
    redis.url,
    "--projects",
    projectsDir,
    "--outputs",
    outputsDir,
    "--stall-timeout",
    STALL_TIMEOUT,
    "--shutdown-grace",
    "0",
  ];
  async function addWorker(): Promise<WorkerProcess> {
    const worker = await startWorker(`worker ${everyWorker.length + 1}`, workerArgs());
    workers.push(worker);
    everyWorker.push(worker);
    return worker;
  }
  const serveArgs = (extra: string[]) => [
    "--port",
    "0",
    "--queue",
    redis.url,
    "--projects",
    projectsDir,
    "--outputs",
    outputsDir,
    "--max-concurrent-renders",
    "2",
    "--shutdown-grace",
    "0",
    ...extra,
  ];

  /** A single-process render of the same composition and options, with the renderer the CLI uses. */
  async function reference(composition: string, body: Record<string, unknown>, name: string): Promise<string> {
    const { composition: _, ...options } = body;
    const result = validateRenderOptions(options);
    if (!result.ok) throw new Error(JSON.stringify(result.problem));
    const output = join(referenceDir, name);
    await render({ composition: join(projectsDir, composition, "index.html"), output, options: result.options });
    return output;
  }

  beforeAll(async () => {
    redis = await startRedis(REDIS_SERVER!);
    root = await mkdtemp(join(tmpdir(), "compose-cluster-"));
    projectsDir = join(root, "projects");
    outputsDir = join(root, "outputs");
    referenceDir = join(root, "reference");
    for (const dir of ["moving", "long"]) await mkdir(join(projectsDir, dir), { recursive: true });
    await mkdir(referenceDir);
    await writeFile(join(projectsDir, "moving", "index.html"), moving("moving", 1, true));
    await writeFile(join(projectsDir, "long", "index.html"), moving("long", 2, false));
    await writeFile(join(projectsDir, "blocker.html"), BLOCKER);
    const tone = spawnSync("ffmpeg", [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=1",
      "-ar",
      "48000",
      join(projectsDir, "moving", "tone.wav"),
    ]);
    expect(tone.status, tone.stderr.toString()).toBe(0);
    // Two servers on one outputs directory: each keeps its state in a store of its own.
    const servers = Promise.allSettled([
      spawnServe(serveArgs(["--chunk-size", "10"])).ready,
      spawnServe(serveArgs(["--state", join(root, "whole-server.db")])).ready,
    ]);
    const started = await Promise.allSettled([addWorker(), addWorker()]);
    const [first, second] = await servers;
    // Whatever did start is stopped by afterAll, even when something else did not.
    if (first.status === "fulfilled") chunked = first.value;
    if (second.status === "fulfilled") whole = second.value;
    for (const result of [first, second, ...started]) if (result.status === "rejected") throw result.reason;
  });

  afterAll(async () => {
    const servers = [chunked, whole].filter(Boolean);
    await Promise.all([...servers.map((server) => server.stop()), ...workers.map((worker) => worker.stop())]);
    const left = [
      ...(await Promise.all(servers.map((server) => leftoverProcesses(server.tag)))).flat(),
      ...(await Promise.all(everyWorker.map((worker) => leftoversOf(worker)))).flat(),
    ];
    await redis?.stop();
    if (root) await rm(root, { recursive: true, force: true });
    expect(left).toEqual([]);
  });

  it("refuses a job whose input is over 256 KiB before it is queued (413), and the body limit still applies", async () => {
    const client = new Redis(redis.url);
    try {
      // Job hashes are named after request ids; the queue's own keys (some of which expire) are not.
      const jobKeys = async () => (await client.keys("compose:renders:*")).filter((key) => /:[0-9a-f-]{36}$/.test(key)).sort();
      const keysBefore = await jobKeys();
      // A body over the cap never reaches the queue.
      const huge = await request(`${chunked.url}/render`, { body: { composition: "moving", variables: { pad: "x".repeat(300 * 1024) } } });
      expect(huge.status).toBe(413);
      expect(huge.json.error.code).toBe("payload-too-large");
      // A body just under the cap whose job (the request plus its id, output name and defaults) is over it.
      const body = { composition: "moving", variables: { pad: "" } };
      body.variables.pad = "x".repeat(256 * 1024 - Buffer.byteLength(JSON.stringify(body)) - 8);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(256 * 1024);
      const over = await request(`${chunked.url}/render`, { body });
      expect(over.status).toBe(413);
      expect(over.json.error).toEqual({
        code: "payload-too-large",
        message: expect.stringMatching(/job's input is 256\.\d KiB, over the 256 KiB cap.*never inline/),
      });
      const stream = await openStream(whole.url, body);
      expect(stream.status).toBe(413);
      expect(stream.error.error.code).toBe("payload-too-large");
      // Nothing was queued.
      expect(await jobKeys()).toEqual(keysBefore);
      expect(await client.llen("compose:renders:wait")).toBe(0);
      expect((await request(`${chunked.url}/render/queue`)).json).toEqual({ maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 });
    } finally {
      client.disconnect();
    }
  });

  it("renders in chunks across the workers the same frames as a single-process render, audio included", async () => {
    const pngBody = { composition: "moving", format: "png-sequence" };
    // CRF 0 is lossless, so decoded frames can be compared exactly whatever the chunk boundaries.
    const mp4Body = { composition: "moving", format: "mp4", crf: 0 };
    const [png, mp4] = await Promise.all([openStream(chunked.url, pngBody), openStream(chunked.url, mp4Body)]);
    const [pngReference, mp4Reference] = await Promise.all([reference("moving", pngBody, "moving-png"), reference("moving", mp4Body, "moving.mp4")]);
    const [pngEvents, mp4Events] = await Promise.all([png.ended, mp4.ended]);

    for (const events of [pngEvents, mp4Events]) {
      const names = events.map((event) => event.event);
      expect(names[0]).toBe("running");
      expect(names.at(-1), JSON.stringify(events)).toBe("finished");
      // Relayed from the workers through Redis, each event is still one the OpenAPI document allows.
      for (const { event, data } of events) expect(eventProblems(data), event).toEqual([]);
      // The whole render's start, as the first chunk's renderer told it.
      expect(names.filter((name) => name === "started")).toHaveLength(1);
      expect(events.find((event) => event.event === "started")!.data).toMatchObject({
        composition: "moving",
        totalFrames: 30,
        durationSeconds: 1,
        width: WIDTH,
        height: HEIGHT,
      });
      const capture = events.filter((event) => event.event === "progress" && event.data.stage === "capture").map((event) => event.data.frame);
      expect(capture.length).toBeGreaterThan(1);
      expect(capture).toEqual([...capture].sort((a, b) => a - b));
      expect(new Set(capture).size).toBe(capture.length);
      expect(capture.at(-1)).toBe(30);
      expect(events.filter((event) => event.event === "progress" && event.data.stage === "assemble")).toHaveLength(1);
      // The chunks' own timings and frame stats, summed; the output as its download URL.
      const finished = events.at(-1)!.data;
      expect(finished).toMatchObject({ frames: 30, durationSeconds: 1, width: WIDTH, height: HEIGHT, stats: { frames: 30 } });
      expect(finished.output).toBe(`/render/${finished.requestId}/output`);
      expect(finished.captureMs).toBeGreaterThan(0);
      expect(finished.elapsedMs).toBeGreaterThan(finished.captureMs);
      expect(finished.sizeBytes).toBeGreaterThan(0);
    }

    // Three chunks each, spread over both workers.
    const pngId = pngEvents[0]!.data.requestId as string;
    const mp4Id = mp4Events[0]!.data.requestId as string;
    for (const id of [pngId, mp4Id]) {
      const chunkRuns = workers.map((worker) => worker.lines().filter((line) => line.verb === "finished" && line.id.startsWith(`${id}.chunk.`)).length);
      expect(chunkRuns.reduce((a, b) => a + b, 0)).toBe(3);
    }
    const used = workers.filter((worker) => worker.lines().some((line) => line.id.startsWith(`${pngId}.chunk.`) || line.id.startsWith(`${mp4Id}.chunk.`)));
    expect(used).toHaveLength(2);

    const pngOutput = join(outputsDir, pngId);
    const names = (await readdir(pngOutput)).sort();
    expect(names).toEqual([...Array.from({ length: 30 }, (_, i) => `frame_${String(i).padStart(6, "0")}.png`), "audio.aac"].sort());
    expect(differentFrames(framesOf(pngOutput, "png-sequence"), framesOf(pngReference, "png-sequence"))).toEqual([]);
    expect((await readFile(join(pngOutput, "audio.aac"))).equals(await readFile(join(pngReference, "audio.aac")))).toBe(true);

    const mp4Output = join(outputsDir, `${mp4Id}.mp4`);
    expect(differentFrames(framesOf(mp4Output, "mp4"), framesOf(mp4Reference, "mp4"))).toEqual([]);
    expect(audioStreamMd5(mp4Output)).toBe(audioStreamMd5(mp4Reference));

    // Served like any other output, by the server that accepted it; the chunks are gone.
    expect((await request(`${chunked.url}/render/${mp4Id}/output`)).body.equals(await readFile(mp4Output))).toBe(true);
    expect(await readdir(join(outputsDir, ".compose-chunks"))).toEqual([]);
  });

  it("completes a chunked render whose worker is killed with SIGKILL in the middle of a chunk", async () => {
    const body = { composition: "long", format: "mp4", crf: 0 };
    const stream = await openStream(chunked.url, body);
    const id = (await stream.next("running")).data.requestId as string;
    const isChunkOfThis = (line: { verb: string; id: string }) => line.verb === "started" && line.id.startsWith(`${id}.chunk.`);
    // The first worker to start a chunk of this render dies while rendering it, browsers and all.
    const victimLine = await Promise.race(workers.map((worker) => worker.waitFor(isChunkOfThis)));
    const victim = workers.find((worker) => worker.lines().some((line) => line.text === victimLine.text))!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const finishedBeforeKill = victim.lines().some((line) => line.verb === "finished" && line.id === victimLine.id);
    const exit = await victim.killHard();
    expect(exit.signal).toBe("SIGKILL");
    expect(finishedBeforeKill, "the chunk was still rendering when its worker was killed").toBe(false);
    workers.splice(workers.indexOf(victim), 1);

    const expected = await reference("long", body, "long.mp4");
    const events = await stream.ended;
    expect(events.at(-1)!.event, JSON.stringify(events.slice(-3))).toBe("finished");
    expect(events.at(-1)!.data).toMatchObject({ frames: 60, durationSeconds: 2 });
    // The dead worker's chunk was run again by the survivor.
    const survivor = workers[0]!;
    expect(survivor.lines().some((line) => line.verb === "finished" && line.id === victimLine.id)).toBe(true);
    const output = join(outputsDir, `${id}.mp4`);
    expect(differentFrames(framesOf(output, "mp4"), framesOf(expected, "mp4"))).toEqual([]);
    expect(await leftoversOf(victim)).toEqual([]);
  });

  it("never runs more than maxConcurrentRenders (2) renders at once across three workers, in FIFO order, and reports the cluster's counts", async () => {
    while (workers.length < 3) await addWorker();
    const count = 6;
    const streams: EventStreamClient[] = [];
    // One after another, so the order of arrival is known.
    for (let i = 0; i < count; i++) streams.push(await openStream(whole.url, { composition: "moving", quality: "draft" }));
    const ids = await Promise.all(streams.map(async (stream) => (await eventually(async () => stream.events[0])).data.requestId as string));

    // Both servers report the cluster's queue, whichever accepted the requests.
    const [fromWhole, fromChunked] = await Promise.all([request(`${whole.url}/render/queue`), request(`${chunked.url}/render/queue`)]);
    expect(fromWhole.json.maxConcurrentRenders).toBe(2);
    expect(fromWhole.json.activeRenders).toBeLessThanOrEqual(2);
    expect(fromWhole.json.activeRenders + fromWhole.json.queuedRenders).toBeGreaterThanOrEqual(count - 2);
    expect(fromChunked.json.maxConcurrentRenders).toBe(2);
    expect(fromChunked.json.activeRenders + fromChunked.json.queuedRenders).toBeGreaterThanOrEqual(count - 2);

    const all = await Promise.all(streams.map((stream) => stream.ended));
    for (const events of all) {
      expect(events.at(-1)!.event, JSON.stringify(events)).toBe("finished");
      // The worker's renderer's own finished event, through Redis: its timings and stats are real.
      expect(events.at(-1)!.data).toMatchObject({ frames: 30, stats: { frames: 30 } });
      expect(events.at(-1)!.data.elapsedMs).toBeGreaterThan(0);
    }
    // The ones that had to wait heard their place before they started.
    const waited = all.filter((events) => events[0]!.event === "queued");
    expect(waited.length).toBeGreaterThanOrEqual(count - 2);
    for (const events of waited)
      expect(events.findIndex((event) => event.event === "queued")).toBeLessThan(events.findIndex((event) => event.event === "running"));

    // The server's start and end times (taken in the queue's event order) never overlap more than the limit.
    const statuses = await Promise.all(ids.map((id) => statusOf(whole.url, id)));
    const requests = statuses.map((status) => ({ start: Date.parse(status.startedAt), end: Date.parse(status.finishedAt) }));
    expect(maxOverlap(requests)).toBe(2);
    // FIFO: they started in the order they arrived.
    const starts = requests.map((interval) => interval.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));

    // What the workers did, from their own logs: each render ran once, never more than 2 at once.
    const runs = workers.flatMap((worker) => {
      const lines = worker.lines().filter((line) => ids.some((id) => line.id === `${id}.render`));
      return lines
        .filter((line) => line.verb === "started")
        .map((start) => ({ worker: worker.name, start: start.at, end: lines.find((line) => line.verb === "finished" && line.id === start.id)!.at }));
    });
    expect(runs).toHaveLength(count);
    expect(maxOverlap(runs)).toBeLessThanOrEqual(2);
    expect(new Set(runs.map((run) => run.worker)).size).toBeGreaterThanOrEqual(2);
    expect((await request(`${whole.url}/render/queue`)).json).toEqual({ maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 });

    // Another server sharing the Redis and the outputs answers for them too.
    const elsewhere = await statusOf(chunked.url, ids[0]!);
    expect(elsewhere).toMatchObject({ requestId: ids[0], state: "completed", composition: "moving", createdAt: statuses[0].createdAt });
    expect(elsewhere.output).toEqual(statuses[0].output);
    const download = await request(`${chunked.url}${elsewhere.output.url}`);
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toBe("video/mp4");
  });

  it("cancels across the cluster: a waiting request is taken out of the queue, a running one is stopped on its worker", async () => {
    const submit = async () => (await request(`${whole.url}/render`, { body: { composition: "blocker.html" } })).json.requestId as string;
    const streamed = await openStream(whole.url, { composition: "blocker.html" });
    const first = (await streamed.next("running")).data.requestId as string;
    const second = await submit();
    await eventually(async () => ((await statusOf(whole.url, second)).state === "running" ? true : undefined));
    const third = await submit();
    await eventually(async () => ((await statusOf(whole.url, third)).position === 1 ? true : undefined));
    expect((await request(`${whole.url}/render/queue`)).json).toEqual({ maxConcurrentRenders: 2, activeRenders: 2, queuedRenders: 1 });

    const waiting = await request(`${whole.url}/render/${third}`, { method: "DELETE" });
    expect(waiting.status).toBe(200);
    expect(waiting.json).toMatchObject({ state: "cancelled", startedAt: null, error: { code: "cancelled" } });
    // Through the other server: the cancel reaches the worker running it, and answers once it has stopped.
    const running = await request(`${chunked.url}/render/${second}`, { method: "DELETE" });
    const answeredAt = Date.now();
    expect(running.status).toBe(200);
    expect(running.json).toMatchObject({ state: "cancelled", error: { code: "cancelled", message: "render cancelled" } });
    // The task had stopped on its worker (browser killed, partial output removed) before the answer.
    const stopped = await Promise.any(
      workers.map((worker) => worker.waitFor((line) => line.verb === "failed" && line.id === `${second}.render` && /cancelled/.test(line.text), 5000)),
    );
    expect(stopped.at).toBeLessThanOrEqual(answeredAt);
    await eventually(async () => ((await statusOf(whole.url, second)).state === "cancelled" ? true : undefined));

    // A client that goes away cancels its render too.
    streamed.disconnect();
    await eventually(async () => ((await statusOf(whole.url, first)).state === "cancelled" ? true : undefined));
    await eventually(async () => ((await request(`${whole.url}/render/queue`)).json.activeRenders === 0 ? true : undefined));
    expect((await request(`${whole.url}/render/queue`)).json).toEqual({ maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 });
  });

  it("hands a running task back to the queue when its worker stops with SIGTERM, and another worker finishes it", async () => {
    const stream = await openStream(whole.url, { composition: "long", quality: "draft" });
    const id = (await stream.next("running")).data.requestId as string;
    const startedLine = await Promise.race(workers.map((worker) => worker.waitFor((line) => line.verb === "started" && line.id === `${id}.render`)));
    const leaving = workers.find((worker) => worker.lines().some((line) => line.text === startedLine.text))!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exit = await leaving.stop();
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(new RegExp(`handed back ${id}\\.render`));
    workers.splice(workers.indexOf(leaving), 1);
    const events = await stream.ended;
    expect(events.at(-1)!.event, JSON.stringify(events.slice(-3))).toBe("finished");
    expect(events.at(-1)!.data).toMatchObject({ frames: 60, durationSeconds: 2 });
    expect(workers.some((worker) => worker.lines().some((line) => line.verb === "finished" && line.id === `${id}.render`))).toBe(true);
    expect(await leftoversOf(leaving)).toEqual([]);
  });
});
