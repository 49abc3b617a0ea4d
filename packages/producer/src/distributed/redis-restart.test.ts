/**
 * What a client is told with `--queue` holds on disk: a request told worker-lost after Redis
 * restarted without persistence leaves no output (the worker stops it, or removes what it wrote),
 * a POST refused during the outage is not rendered later and its Idempotency-Key can be sent again,
 * a server killed with SIGKILL follows its requests again once started, and a worker that does not
 * see the server's outputs directory fails the request as outputs-not-shared.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import {
  findRedisServer,
  startRedis,
  startSmallCluster,
  startWorker,
  type RedisServer,
  type SmallCluster,
  type WorkerProcess,
} from "../../test/support/cluster.js";
import { PROJECT_FILES, TINY } from "../../test/support/compositions.js";
import { eventually, request } from "../../test/support/http.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../../test/support/serve.js";
import { QUEUE_PREFIX, RENDERS_QUEUE } from "./protocol.js";

const REDIS_SERVER = findRedisServer();

/** 180 frames: a render that runs several seconds. */
const SLOW = TINY.replace('data-duration="0.5"', 'data-duration="6"');
const FILES = { ...PROJECT_FILES, "slow/index.html": SLOW };
const BODY = { composition: "slow", quality: "draft", workers: 1 };

const status = async (base: string, id: string) => (await request(`${base}/render/${id}`)).json;
const outputs = async (dir: string) => (await readdir(dir)).filter((name) => !name.startsWith("."));

describe.skipIf(!REDIS_SERVER)("with --queue", () => {
  let cluster: SmallCluster | undefined;
  let extra: Array<ServeProcess | WorkerProcess> = [];

  afterEach(async () => {
    for (const each of extra) await each.stop();
    for (const each of extra) await leftoverProcesses(each.tag);
    extra = [];
    await cluster?.close();
    cluster = undefined;
  });

  it("a render told worker-lost when Redis restarts without persistence leaves no output, though its worker was rendering it", async () => {
    cluster = await startSmallCluster(REDIS_SERVER!, "redis-restart", FILES, ["--max-concurrent-renders", "1"]);
    const { server, worker } = cluster;
    const id = (await request(`${server.url}/render`, { body: BODY })).json.requestId as string;
    await worker.waitFor((line) => line.verb === "started" && line.id === `${id}.render`);
    const port = cluster.redis.port;
    await cluster.redis.stop();
    cluster.redis = await startRedis(REDIS_SERVER!, port);

    const told = await eventually(async () => {
      const now = await status(server.url, id).catch(() => undefined);
      return now?.state === "failed" ? now : undefined;
    }, 60_000);
    expect(told.error).toMatchObject({ code: "worker-lost" });
    await worker.waitFor((line) => line.id === `${id}.render` && line.verb !== "started");
    expect(await outputs(cluster.outputsDir)).toEqual([]);
  });

  it("a POST refused while Redis is down is not rendered later, and its Idempotency-Key may be sent again", async () => {
    cluster = await startSmallCluster(REDIS_SERVER!, "redis-down-post", FILES, ["--max-concurrent-renders", "1"]);
    const { server } = cluster;
    const port = cluster.redis.port;
    await cluster.redis.stop();
    const key = { "idempotency-key": "outage-1" };
    const refused = await request(`${server.url}/render`, { body: BODY, headers: key });
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe("queue-unavailable");
    cluster.redis = await startRedis(REDIS_SERVER!, port);

    const accepted = await eventually(async () => {
      const answer = await request(`${server.url}/render`, { body: BODY, headers: key });
      return answer.status === 202 ? answer : undefined;
    });
    const again = await request(`${server.url}/render`, { body: BODY, headers: key });
    expect(again.json.requestId).toBe(accepted.json.requestId);
    const queue = new Queue(RENDERS_QUEUE, { connection: { host: "127.0.0.1", port, maxRetriesPerRequest: null }, prefix: QUEUE_PREFIX });
    try {
      expect((await queue.getJobs()).map((job) => job.id)).toEqual([accepted.json.requestId]);
    } finally {
      await queue.close();
    }
    await eventually(async () => ((await status(server.url, accepted.json.requestId)).state === "completed" ? true : undefined), 60_000);
    expect(await outputs(cluster.outputsDir)).toEqual([`${accepted.json.requestId}.mp4`]);
  });

  it("a server killed with SIGKILL follows its requests again once started, and answers for them", async () => {
    cluster = await startSmallCluster(REDIS_SERVER!, "serve-restart", FILES, ["--max-concurrent-renders", "1"]);
    const { server, worker, projectsDir, outputsDir, redis } = cluster;
    const id = (await request(`${server.url}/render`, { body: BODY })).json.requestId as string;
    await worker.waitFor((line) => line.verb === "started" && line.id === `${id}.render`);
    await server.stop("SIGKILL");

    const again = await spawnServe(["--port", "0", "--queue", redis.url, "--projects", projectsDir, "--outputs", outputsDir, "--shutdown-grace", "0"]).ready;
    extra.push(again);
    const done = await eventually(async () => {
      const now = await status(again.url, id);
      return now.state === "completed" ? now : undefined;
    }, 60_000);
    expect(done.output).toMatchObject({ url: `/render/${id}/output`, frames: 180 });
    expect((await request(`${again.url}/render/${id}/output`)).status).toBe(200);
  });

  it("a worker whose --outputs is not the server's fails the request as outputs-not-shared", async () => {
    const redis: RedisServer = await startRedis(REDIS_SERVER!);
    const root = await mkdtemp(join(tmpdir(), "compose-other-outputs-"));
    try {
      await writeFile(join(root, "slow.html"), SLOW);
      const server = await spawnServe([
        "--port",
        "0",
        "--queue",
        redis.url,
        "--projects",
        root,
        "--outputs",
        join(root, "server-outputs"),
        "--shutdown-grace",
        "0",
      ]).ready;
      extra.push(server);
      extra.push(
        await startWorker("elsewhere", ["--queue", redis.url, "--projects", root, "--outputs", join(root, "worker-outputs"), "--shutdown-grace", "0"]),
      );
      const id = (await request(`${server.url}/render`, { body: { ...BODY, composition: "slow.html" } })).json.requestId as string;
      const failed = await eventually(async () => {
        const now = await status(server.url, id);
        return now.state === "failed" ? now : undefined;
      }, 60_000);
      expect(failed.error.code).toBe("outputs-not-shared");
      expect(failed.error.message).toMatch(/does not see the outputs directory of the server that accepted this request/);
      expect(await outputs(join(root, "worker-outputs"))).toEqual([]);
    } finally {
      for (const each of extra.splice(0)) {
        await each.stop();
        await leftoverProcesses(each.tag);
      }
      await redis.stop();
      await rm(root, { recursive: true, force: true });
    }
  });
});
