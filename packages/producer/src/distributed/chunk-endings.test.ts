/**
 * Chunked renders that used to end wrong, on a real redis-server with `compose serve --queue
 * --chunk-size` and a `compose worker`: a silent video that fits in one chunk, a chunk damaged
 * on the shared storage after its task ended, and a Redis restarted without persistence, which
 * forgets the cluster's concurrency limit.
 */
import { readdir, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import { render } from "@compose/renderer";
import { validateRenderOptions } from "@compose/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeFrames,
  findRedisServer,
  startRedis,
  startSmallCluster,
  type RedisServer,
  type SmallCluster,
  type WorkerProcess,
} from "../../test/support/cluster.js";
import { PROJECT_FILES } from "../../test/support/compositions.js";
import { eventually, openStream, request } from "../../test/support/http.js";
import type { ServeProcess } from "../../test/support/serve.js";

const REDIS_SERVER = findRedisServer();
if (!REDIS_SERVER) console.warn("SKIPPED: the distributed queue tests need redis-server (apt-get install redis-server; scripts/setup.sh installs it)");

/** tiny (15 frames) fits in one chunk; crossing (30 frames) is two. */
const CHUNK_SIZE = "20";

describe.skipIf(!REDIS_SERVER)("chunked renders end right", () => {
  let cluster: SmallCluster | undefined;
  let redis: RedisServer;
  let root: string;
  let projectsDir: string;
  let outputsDir: string;
  let server: ServeProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    cluster = await startSmallCluster(REDIS_SERVER!, "chunk-endings", PROJECT_FILES, ["--max-concurrent-renders", "2", "--chunk-size", CHUNK_SIZE]);
    ({ redis, root, projectsDir, outputsDir, server, worker } = cluster);
  });

  afterAll(async () => {
    if (cluster) expect(await cluster.close()).toEqual([]);
  });

  it.each(["mp4", "mov", "webm"])("finishes a silent %s that fits in one chunk, with every frame", async (format) => {
    const stream = await openStream(server.url, { composition: "tiny", format, quality: "draft" });
    const events = await stream.ended;
    expect(events.at(-1)!.event, JSON.stringify(events.slice(-2))).toBe("finished");
    expect(events.at(-1)!.data).toMatchObject({ frames: 15, format });
    const id = events[0]!.data.requestId as string;
    const frames = decodeFrames(["-i", join(outputsDir, `${id}.${format}`)], 320, 180);
    expect(frames).toHaveLength(15);
    expect(await readdir(join(outputsDir, ".compose-chunks"))).toEqual([]);
  });

  it("renders again a chunk damaged after its task ended, and joins every frame", async () => {
    const body = { composition: "crossing", format: "mp4", crf: 0 };
    const stream = await openStream(server.url, body);
    const id = (await stream.next("running")).data.requestId as string;
    // One worker, one task at a time: while the second chunk renders, the first is done and not yet joined.
    await worker.waitFor((line) => line.verb === "started" && line.id === `${id}.chunk.1`);
    const first = join(outputsDir, ".compose-chunks", id, "chunk-00000.mp4");
    await truncate(first, Math.floor((await stat(first)).size / 2));

    const options = validateRenderOptions({ format: "mp4", crf: 0 });
    if (!options.ok) throw new Error(JSON.stringify(options.problem));
    const reference = join(root, "reference.mp4");
    await render({ composition: join(projectsDir, "crossing", "index.html"), output: reference, options: options.options });

    const events = await stream.ended;
    expect(events.at(-1)!.event, JSON.stringify(events.slice(-2))).toBe("finished");
    expect(events.at(-1)!.data).toMatchObject({ frames: 30 });
    const joined = decodeFrames(["-i", join(outputsDir, `${id}.mp4`)], 320, 180);
    const expected = decodeFrames(["-i", reference], 320, 180);
    expect(joined).toHaveLength(30);
    expect(
      expected.flatMap((frame, n) => (frame.equals(joined[n]!) ? [] : [n])),
      "frames that differ from a single render",
    ).toEqual([]);
    // Three renders of the composition's chunks, one of them again, and a reference render.
  }, 180_000);

  it("keeps the concurrency limit through a Redis restart without persistence, and GET /render/queue tells it", async () => {
    const port = redis.port;
    await redis.stop();
    redis = cluster!.redis = await startRedis(REDIS_SERVER!, port);
    await eventually(async () => ((await request(`${server.url}/render/queue`)).status === 200 ? true : undefined), 30_000);

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await request(`${server.url}/render`, { body: { composition: "blocker.html" } })).json.requestId as string);
    const queue = async () => (await request(`${server.url}/render/queue`)).json;
    await eventually(async () => ((await queue()).activeRenders === 2 ? true : undefined), 30_000);
    // Long enough for the worker, which coordinates up to 10 requests, to take a third one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await queue()).toEqual({ maxConcurrentRenders: 2, activeRenders: 2, queuedRenders: 1 });

    for (const id of ids) expect((await request(`${server.url}/render/${id}`, { method: "DELETE" })).status).toBe(200);
    await eventually(async () => ((await queue()).activeRenders === 0 ? true : undefined), 30_000);
  });
});
