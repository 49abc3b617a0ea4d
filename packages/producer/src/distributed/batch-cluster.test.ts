/**
 * A batch under `compose serve --queue`: its rows are ordinary jobs of the renders queue, rendered
 * by `compose worker`, and the batch's status follows them there. Another server sharing the
 * Redis answers for each row as a request, with its metadata and its batch.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRedisServer, startSmallCluster, type SmallCluster } from "../../test/support/cluster.js";
import { PROJECT_FILES } from "../../test/support/compositions.js";
import { eventually, request } from "../../test/support/http.js";
import { schemaProblems } from "../../test/support/openapi.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../../test/support/serve.js";

const REDIS_SERVER = findRedisServer();
if (!REDIS_SERVER) console.warn("SKIPPED: the distributed queue tests need redis-server (apt-get install redis-server; scripts/setup.sh installs it)");

describe.skipIf(!REDIS_SERVER)("a batch on the distributed queue", () => {
  let cluster: SmallCluster | undefined;
  let other: ServeProcess | undefined;

  beforeAll(async () => {
    cluster = await startSmallCluster(REDIS_SERVER!, "batch", PROJECT_FILES, ["--max-concurrent-renders", "1"]);
    const { redis, projectsDir, outputsDir } = cluster;
    // A second server on the same outputs directory keeps its state in a store of its own.
    const state = join(cluster.root, "other-server.db");
    other = await spawnServe([
      "--port",
      "0",
      "--queue",
      redis.url,
      "--projects",
      projectsDir,
      "--outputs",
      outputsDir,
      "--state",
      state,
      "--shutdown-grace",
      "0",
    ]).ready;
  }, 120_000);

  afterAll(async () => {
    if (other) {
      await other.stop();
      expect(await leftoverProcesses(other.tag)).toEqual([]);
    }
    if (cluster) expect(await cluster.close()).toEqual([]);
  });

  it("renders every row on the workers and sums their states in the batch's status", async () => {
    const { server, worker, outputsDir } = cluster!;
    const accepted = await request(`${server.url}/render/batch`, {
      body: { composition: "moods", quality: "draft", output: "{index}-{mood}.{ext}", metadata: { run: 1 }, rows: [{ mood: "calm" }, { mood: "loud" }, {}] },
    });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(202);
    const { batchId, requestIds } = accepted.json as { batchId: string; requestIds: string[] };

    const status = await eventually(async () => {
      const current = (await request(`${server.url}/render/batch/${batchId}`)).json;
      return current.state === "ended" ? current : undefined;
    }, 120_000);
    expect(schemaProblems("BatchStatus", status)).toEqual([]);
    expect(status.counts).toEqual({ queued: 0, running: 0, completed: 3, failed: 0, cancelled: 0 });
    expect(status.rows.map((row: { outputName: string }) => row.outputName)).toEqual(["1-calm.mp4", "2-loud.mp4", "3-calm.mp4"]);
    expect((await readdir(outputsDir)).filter((name) => name.endsWith(".mp4")).sort()).toEqual(["1-calm.mp4", "2-loud.mp4", "3-calm.mp4"]);
    // Rendered by the worker, one after another as the limit of one allows.
    for (const id of requestIds)
      expect(
        worker.lines().some((line) => line.verb === "finished" && line.id.startsWith(id)),
        id,
      ).toBe(true);

    // Another server sharing the queue knows each row as a request, with its metadata and batch.
    const row = (await request(`${other!.url}/render/${requestIds[1]}`)).json;
    expect(row).toMatchObject({ state: "completed", outputName: "2-loud.mp4", metadata: { run: 1 }, batch: { id: batchId, row: 2 } });
    expect(schemaProblems("RenderStatus", row)).toEqual([]);
  }, 180_000);
});
