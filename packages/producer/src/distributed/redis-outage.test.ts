/**
 * Redis goes away under a running cluster: reads answer 503 within 2 s, and SIGTERM still ends
 * `compose serve` and `compose worker` within their grace period, with exit code 0.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRedisServer, startRedis, startWorker, type RedisServer, type WorkerProcess } from "../../test/support/cluster.js";
import { request } from "../../test/support/http.js";
import { spawnServe, type ServeProcess } from "../../test/support/serve.js";

const REDIS_SERVER = findRedisServer();
const GRACE_SECONDS = 2;
/** The grace period, then what stopping takes on a busy machine. */
const ENDS_WITHIN_MS = GRACE_SECONDS * 1000 + 8000;

describe.skipIf(!REDIS_SERVER)("when Redis goes away", () => {
  let redis: RedisServer;
  let root: string;
  let serve: ServeProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    redis = await startRedis(REDIS_SERVER!);
    root = await mkdtemp(join(tmpdir(), "compose-outage-"));
    const dirs = ["--projects", root, "--outputs", join(root, "outputs"), "--shutdown-grace", String(GRACE_SECONDS)];
    [serve, worker] = await Promise.all([
      spawnServe(["--port", "0", "--queue", redis.url, ...dirs]).ready,
      startWorker("worker", ["--queue", redis.url, ...dirs]),
    ]);
    await redis.stop();
  });

  afterAll(async () => {
    serve?.child.kill("SIGKILL");
    await worker?.killHard();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("reads answer 503 within 2 s", async () => {
    for (const path of ["/render/queue", "/render/0b6c2d8e-5d0e-4d8c-9d2c-1a2b3c4d5e6f"]) {
      const started = Date.now();
      const response = await request(`${serve.url}${path}`);
      expect(response.status, path).toBe(503);
      expect(response.json.error.code).toBe("queue-unavailable");
      expect(response.json.error.message).not.toMatch(/maxRetriesPerRequest/);
      expect(Date.now() - started, path).toBeLessThan(2000);
    }
  });

  it("SIGTERM ends compose serve and compose worker within their grace period, exit code 0", async () => {
    const started = Date.now();
    const [serveExit, workerExit] = await Promise.all([serve.stop("SIGTERM"), worker.stop(60_000)]);
    expect(Date.now() - started).toBeLessThan(ENDS_WITHIN_MS);
    expect(serveExit.code, serveExit.stderr).toBe(0);
    expect(workerExit.code, workerExit.stderr).toBe(0);
  });
});
