/**
 * One history across a cluster: a composition whose state builds up frame by frame, rendered in
 * chunks of several sizes by two `compose worker` processes on a real Redis, has the frames of a
 * single-process render, and its complete event says the chunks replayed their history.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render } from "@compose/renderer";
import { validateRenderOptions } from "@compose/core";
import { createHistoryProject, HISTORY_FRAMES } from "../../../../test/support/history-composition.js";
import type { TempProject } from "../../../../test/support/project.js";
import { findRedisServer, leftoversOf, startRedis, startWorker, type RedisServer, type WorkerProcess } from "../../test/support/cluster.js";
import { openStream } from "../../test/support/http.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../../test/support/serve.js";

const REDIS_SERVER = findRedisServer();
const CHUNK_SIZES = [4, 7];

async function pngFrames(dir: string): Promise<Buffer[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".png")).sort();
  return Promise.all(names.map((name) => readFile(join(dir, name))));
}

describe.skipIf(!REDIS_SERVER)("one history in distributed chunks", () => {
  let redis: RedisServer;
  let root: string;
  let project: TempProject;
  let outputsDir: string;
  const servers: ServeProcess[] = [];
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis(REDIS_SERVER!);
    root = await mkdtemp(join(tmpdir(), "compose-history-cluster-"));
    outputsDir = join(root, "outputs");
    project = await createHistoryProject();
    const common = ["--queue", redis.url, "--projects", project.dir, "--outputs", outputsDir, "--shutdown-grace", "0"];
    const started = await Promise.allSettled([
      // Servers sharing one outputs directory each keep their state in a store of their own.
      ...CHUNK_SIZES.map(
        (size) =>
          spawnServe(["--port", "0", "--max-concurrent-renders", "2", "--chunk-size", String(size), "--state", join(root, `server-${size}.db`), ...common])
            .ready,
      ),
      startWorker("worker 1", [...common, "--stall-timeout", "3"]),
      startWorker("worker 2", [...common, "--stall-timeout", "3"]),
    ]);
    for (const [i, result] of started.entries()) {
      if (result.status !== "fulfilled") continue;
      if (i < CHUNK_SIZES.length) servers.push(result.value as ServeProcess);
      else workers.push(result.value as WorkerProcess);
    }
    for (const result of started) if (result.status === "rejected") throw result.reason;
  });

  afterAll(async () => {
    await Promise.all([...servers.map((server) => server.stop()), ...workers.map((worker) => worker.stop())]);
    const left = [
      ...(await Promise.all(servers.map((server) => leftoverProcesses(server.tag)))).flat(),
      ...(await Promise.all(workers.map((worker) => leftoversOf(worker)))).flat(),
    ];
    await redis?.stop();
    await project?.remove();
    if (root) await rm(root, { recursive: true, force: true });
    expect(left).toEqual([]);
  });

  it("gives the frames of a single-process render with chunks of 4 and of 7 frames", async () => {
    const body = { composition: "index.html", format: "png-sequence" };
    const streams = await Promise.all(servers.map((server) => openStream(server.url, body)));
    const options = validateRenderOptions({ format: "png-sequence", workers: 1 });
    if (!options.ok) throw new Error(JSON.stringify(options.problem));
    const reference = join(root, "reference");
    await render({ composition: project.path("index.html"), output: reference, options: options.options });
    const expected = await pngFrames(reference);
    expect(expected).toHaveLength(HISTORY_FRAMES);

    for (const [i, stream] of streams.entries()) {
      const events = await stream.ended;
      const finished = events.at(-1)!;
      expect(finished.event, `chunks of ${CHUNK_SIZES[i]}: ${JSON.stringify(events.at(-1))}`).toBe("finished");
      expect(finished.data).toMatchObject({ frames: HISTORY_FRAMES, history: "replay" });
      const frames = await pngFrames(join(outputsDir, events[0]!.data.requestId as string));
      expect(
        expected.flatMap((bytes, n) => (frames[n]?.equals(bytes) ? [] : [n])),
        `chunks of ${CHUNK_SIZES[i]}: frames that differ`,
      ).toEqual([]);
    }
  });
});
