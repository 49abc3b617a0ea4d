/**
 * A chunked render is one plan, on a real redis-server with `compose serve --queue --chunk-size`
 * and a `compose worker`: the chunks capture the frames the plan task planned, whatever the
 * composition says by the time they run, and a stored plan changed after it was made is refused.
 */
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { render } from "@compose/renderer";
import { validateRenderOptions } from "@compose/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeFrames, findRedisServer, startSmallCluster, type SmallCluster, type WorkerProcess } from "../../test/support/cluster.js";
import { CROSSING } from "../../test/support/compositions.js";
import { openStream } from "../../test/support/http.js";
import type { ServeProcess } from "../../test/support/serve.js";

const REDIS_SERVER = findRedisServer();
if (!REDIS_SERVER) console.warn("SKIPPED: the distributed queue tests need redis-server (apt-get install redis-server; scripts/setup.sh installs it)");

/** crossing is 30 frames: chunks 0-19 and 20-29. */
const CHUNK_SIZE = "20";

/**
 * Replaces a file whole, as an editor saves (written beside it, then renamed over it): the first
 * chunk may still be reading it, and reads one version or the other, never a half-written file.
 */
async function replaceFile(file: string, text: string): Promise<void> {
  await writeFile(`${file}.new`, text);
  await rename(`${file}.new`, file);
}

describe.skipIf(!REDIS_SERVER)("a chunked render is one plan", () => {
  let cluster: SmallCluster | undefined;
  let root: string;
  let projectsDir: string;
  let outputsDir: string;
  let server: ServeProcess;
  let worker: WorkerProcess;
  let reference: Buffer[];

  beforeAll(async () => {
    cluster = await startSmallCluster(REDIS_SERVER!, "one-plan", { "shrinking/index.html": CROSSING, "tampered/index.html": CROSSING }, [
      "--chunk-size",
      CHUNK_SIZE,
    ]);
    ({ root, projectsDir, outputsDir, server, worker } = cluster);
    const options = validateRenderOptions({ format: "mp4", crf: 0 });
    if (!options.ok) throw new Error(JSON.stringify(options.problem));
    await render({ composition: join(projectsDir, "shrinking", "index.html"), output: join(root, "reference.mp4"), options: options.options });
    reference = decodeFrames(["-i", join(root, "reference.mp4")], 320, 180);
  }, 120_000);

  afterAll(async () => {
    if (cluster) expect(await cluster.close()).toEqual([]);
  });

  it("renders the planned frames though the composition is cut to half its length before its second chunk runs", async () => {
    const stream = await openStream(server.url, { composition: "shrinking", format: "mp4", crf: 0 });
    const id = (await stream.next("running")).data.requestId as string;
    // One worker, one task at a time: the second chunk loads the composition after this.
    await worker.waitFor((line) => line.verb === "started" && line.id === `${id}.chunk.0`);
    const file = join(projectsDir, "shrinking", "index.html");
    await replaceFile(file, (await readFile(file, "utf8")).replace('data-duration="1"', 'data-duration="0.5"'));

    const events = await stream.ended;
    expect(events.at(-1)!.event, JSON.stringify(events.slice(-2))).toBe("finished");
    expect(events.at(-1)!.data).toMatchObject({ frames: 30 });
    const frames = decodeFrames(["-i", join(outputsDir, `${id}.mp4`)], 320, 180);
    expect(frames).toHaveLength(30);
    expect(
      reference.flatMap((frame, n) => (frame.equals(frames[n]!) ? [] : [n])),
      "frames that differ from a single render of the planned composition",
    ).toEqual([]);
  }, 180_000);

  it("fails as invalid-job when the stored plan changed after it was made, and leaves no chunk behind", async () => {
    const stream = await openStream(server.url, { composition: "tampered", format: "mp4" });
    const id = (await stream.next("running")).data.requestId as string;
    await worker.waitFor((line) => line.verb === "started" && line.id === `${id}.chunk.0`);
    const plan = join(outputsDir, ".compose-chunks", id, "plan.json");
    await replaceFile(plan, (await readFile(plan, "utf8")).replace(/"jpegQuality":\d+/, '"jpegQuality":10'));

    const events = await stream.ended;
    expect(events.at(-1)!.event, JSON.stringify(events.slice(-2))).toBe("failed");
    expect(events.at(-1)!.data).toMatchObject({ code: "invalid-job" });
    expect(events.at(-1)!.data.message).toMatch(/stored plan .* does not have the hash its tasks were given/);
    expect(await readdir(outputsDir)).not.toContain(`${id}.mp4`);
    expect(await readdir(join(outputsDir, ".compose-chunks"))).toEqual([]);
  }, 180_000);
});
