/**
 * Whoever can write to Redis can hand a worker any job. Ids and numbers that become paths are
 * checked before use: a hostile job fails as invalid-job, and nothing outside --outputs is
 * created or deleted.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue, type Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateRenderOptions } from "@compose/core";
import { findRedisServer, leftoversOf, startRedis, startWorker, type RedisServer, type WorkerProcess } from "../../test/support/cluster.js";
import { QUEUE_PREFIX, RENDERS_QUEUE, TASKS_QUEUE } from "./protocol.js";

const REDIS_SERVER = findRedisServer();
const OPTIONS = (() => {
  const result = validateRenderOptions({ workers: 1 });
  if (!result.ok) throw new Error("default options refused");
  return result.options;
})();

async function failedReason(queue: Queue, job: Job, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = await job.getState();
    if (state === "failed" || state === "completed") {
      const fresh = await queue.getJob(job.id!);
      return fresh?.failedReason ?? `(${state})`;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${job.id} did not end within ${timeoutMs} ms`);
}

describe.skipIf(!REDIS_SERVER)("hostile jobs written straight into Redis", () => {
  let redis: RedisServer;
  let root: string;
  let worker: WorkerProcess;
  let renders: Queue;
  let tasks: Queue;

  beforeAll(async () => {
    redis = await startRedis(REDIS_SERVER!);
    root = await mkdtemp(join(tmpdir(), "compose-hostile-jobs-"));
    await mkdir(join(root, "projects", "ok"), { recursive: true });
    await mkdir(join(root, "outputs"));
    await mkdir(join(root, "victim"));
    await writeFile(join(root, "victim", "keep.txt"), "must survive");
    await writeFile(
      join(root, "projects", "ok", "index.html"),
      `<!doctype html><div data-composition-id="ok" data-width="320" data-height="180" data-duration="0.2"></div>`,
    );
    worker = await startWorker("worker", [
      "--queue",
      redis.url,
      "--projects",
      join(root, "projects"),
      "--outputs",
      join(root, "outputs"),
      "--shutdown-grace",
      "0",
    ]);
    const connection = { connection: { url: redis.url }, prefix: QUEUE_PREFIX };
    renders = new Queue(RENDERS_QUEUE, connection);
    tasks = new Queue(TASKS_QUEUE, connection);
  });

  afterAll(async () => {
    await renders?.close();
    await tasks?.close();
    await worker?.stop();
    const left = worker ? await leftoversOf(worker) : [];
    await redis?.stop();
    if (root) await rm(root, { recursive: true, force: true });
    expect(left).toEqual([]);
  });

  it("a request whose id climbs out of --outputs fails as invalid-job and deletes nothing outside", async () => {
    const job = await renders.add(
      "render",
      { requestId: "../../victim", composition: "missing", outputName: "x.mp4", options: OPTIONS, chunkSize: 10, createdAt: new Date().toISOString() },
      { jobId: "hostile-request" },
    );
    expect(await failedReason(renders, job)).toMatch(/^invalid-job: the request id "\.\.\/\.\.\/victim" is not a plain name/);
    expect(await readdir(join(root, "victim"))).toEqual(["keep.txt"]);
  });

  it("a task whose request id climbs out fails as invalid-job, creating nothing", async () => {
    const job = await tasks.add("plan", { kind: "plan", requestId: "../../made-by-a-task" }, { jobId: "hostile-plan" });
    expect(await failedReason(tasks, job)).toMatch(/^invalid-job: /);
    expect((await readdir(root)).sort()).toEqual(["outputs", "projects", "victim"]);
  });

  it("a chunk whose index is a path fails as invalid-job, rendering nothing", async () => {
    const job = await tasks.add(
      "chunk",
      { kind: "chunk", requestId: "some-request", index: "../../../../escape", count: 1, frames: { start: 0, end: 1 } },
      { jobId: "hostile-chunk" },
    );
    expect(await failedReason(tasks, job)).toMatch(/^invalid-job: the task's chunk numbers/);
    expect((await readdir(root)).sort()).toEqual(["outputs", "projects", "victim"]);
  });

  it("a request whose output name climbs out fails as invalid-job", async () => {
    const job = await renders.add(
      "render",
      {
        requestId: "request-with-bad-output",
        composition: "ok",
        outputName: "../escape.mp4",
        options: OPTIONS,
        chunkSize: null,
        createdAt: new Date().toISOString(),
      },
      { jobId: "request-with-bad-output" },
    );
    expect(await failedReason(renders, job)).toMatch(/^invalid-job: the output name/);
    expect((await readdir(root)).sort()).toEqual(["outputs", "projects", "victim"]);
  });

  it("the worker still renders a well-formed request afterwards", async () => {
    const job = await renders.add(
      "render",
      { requestId: "good-request", composition: "ok", outputName: "good-request.mp4", options: OPTIONS, chunkSize: null, createdAt: new Date().toISOString() },
      { jobId: "good-request" },
    );
    expect(await failedReason(renders, job, 60_000)).toBe("(completed)");
    expect(await readdir(join(root, "outputs"))).toContain("good-request.mp4");
  });
});
