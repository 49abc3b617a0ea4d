/**
 * `npm run chaos -- --cluster`: the cluster under faults, all on 127.0.0.1. Redis with append-only
 * persistence, two `compose serve --queue` (one splitting renders into chunks of 10 frames, one
 * not) and three `compose worker`, sharing one projects and one outputs directory. Chunked and
 * whole requests in every format run while, one after another, a worker is killed with SIGKILL in
 * the middle of a chunk, another gets SIGTERM in the middle of a render, the worker coordinating
 * a chunked request is killed with SIGKILL, and Redis is restarted; each lost worker is replaced.
 *
 * Every request must end finished, with the frames of a single-process render of the same request
 * (decoded and compared), or failed with a documented code; afterwards nothing may be left: no
 * process, chunk directory or staging. It prints each fault with the time the
 * cluster took to recover from it, and exits 1 on any problem.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RENDER_ERROR_CODES, validateRenderOptions, type OutputFormat } from "@compose/core";
import { render } from "@compose/renderer";
import { outputPath } from "../src/output/output-files.js";
import { decodeFrames, findRedisServer, leftoversOf, startRedis, startWorker, type LogLine, type WorkerProcess } from "../test/support/cluster.js";
import { eventually, request } from "../test/support/http.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../test/support/serve.js";

const TIMEOUT_S = Number(process.env.CHAOS_TIMEOUT_S ?? 600);
const WIDTH = 320;
const HEIGHT = 180;
const LIMIT = 3;
/** Short, so that a killed worker's tasks are taken back within seconds. */
const STALL_TIMEOUT_S = 3;
const GRACE_S = 1;

/** A box crossing the stage (every frame differs), with a tone from 0.2 s to 0.8 s when `audio`. */
const moving = (id: string, seconds: number, audio: boolean) => `<!doctype html>
<html><head><meta charset="utf-8"><style>
  * { margin: 0; padding: 0; }
  #stage { position: relative; width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; background: #204080; }
  #box { position: absolute; left: 0; top: 50px; width: 60px; height: 80px; background: #ff4000; animation: cross ${seconds}s linear forwards; }
  @keyframes cross { from { left: 0; transform: rotate(0deg); } to { left: 260px; transform: rotate(180deg); } }
</style></head>
<body><div id="stage" data-composition-id="${id}" data-width="${WIDTH}" data-height="${HEIGHT}" data-duration="${seconds}">
  <div id="box"></div>
  ${audio ? `<audio id="tone" src="tone.wav" data-start="0.2" data-duration="0.6"></audio>` : ""}
</div></body></html>
`;

interface Job {
  name: string;
  server: "chunked" | "whole";
  body: { composition: string; format: OutputFormat; crf?: number };
}

/** Lossless or intra-only where chunks are joined, so frames compare exactly whatever the chunk boundaries. */
const JOBS: Job[] = [
  { name: "chunked mp4, 90 frames", server: "chunked", body: { composition: "long", format: "mp4", crf: 0 } },
  { name: "chunked png-sequence, 90 frames", server: "chunked", body: { composition: "long", format: "png-sequence" } },
  { name: "chunked mp4 with audio", server: "chunked", body: { composition: "moving", format: "mp4", crf: 0 } },
  { name: "chunked mov with audio", server: "chunked", body: { composition: "moving", format: "mov" } },
  { name: "whole mp4, 90 frames", server: "whole", body: { composition: "long", format: "mp4", crf: 0 } },
  { name: "whole webm with audio", server: "whole", body: { composition: "moving", format: "webm" } },
  { name: "whole png-sequence", server: "whole", body: { composition: "moving", format: "png-sequence" } },
];

interface Fault {
  what: string;
  recoveredAfterMs: number | undefined;
}

const problems: string[] = [];
const problem = (text: string) => problems.push(text);
const seconds = (ms: number | undefined) => (ms === undefined ? "not recovered" : `${(ms / 1000).toFixed(1)} s`);

function framesOf(file: string, format: OutputFormat): Buffer[] {
  return decodeFrames(format === "png-sequence" ? ["-i", join(file, "frame_%06d.png")] : ["-i", file], WIDTH, HEIGHT);
}

/** The first line any of `workers` printed at or after `since` that passes `test`. */
async function firstLine(workers: () => WorkerProcess[], test: (line: LogLine) => boolean, since: number, timeoutMs = 90_000): Promise<{ worker: WorkerProcess; line: LogLine }> {
  return eventually(async () => {
    for (const worker of workers()) {
      const line = worker.lines().find((each) => each.at >= since - 1000 && test(each));
      if (line) return { worker, line };
    }
    return undefined;
  }, timeoutMs);
}

async function main(): Promise<void> {
  const redisServer = findRedisServer();
  if (!redisServer) throw new Error("the cluster chaos run needs redis-server (apt-get install redis-server; scripts/setup.sh installs it)");
  const root = await mkdtemp(join(tmpdir(), "compose-chaos-cluster-"));
  const projectsDir = join(root, "projects");
  const outputsDir = join(root, "outputs");
  const referenceDir = join(root, "reference");
  for (const dir of ["long", "moving"]) await mkdir(join(projectsDir, dir), { recursive: true });
  await mkdir(referenceDir);
  await writeFile(join(projectsDir, "long", "index.html"), moving("long", 3, false));
  await writeFile(join(projectsDir, "moving", "index.html"), moving("moving", 1, true));
  spawnSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-ar", "48000", join(projectsDir, "moving", "tone.wav")]);

  let redis = await startRedis(redisServer, undefined, { appendOnly: true });
  const workers: WorkerProcess[] = [];
  const everyWorker: WorkerProcess[] = [];
  const addWorker = async () => {
    const worker = await startWorker(`worker ${everyWorker.length + 1}`, [
      "--queue", redis.url, "--projects", projectsDir, "--outputs", outputsDir,
      "--stall-timeout", String(STALL_TIMEOUT_S), "--shutdown-grace", String(GRACE_S),
    ]);
    workers.push(worker);
    everyWorker.push(worker);
  };
  const leave = (worker: WorkerProcess) => workers.splice(workers.indexOf(worker), 1);
  const serveArgs = (extra: string[]) => [
    "--port", "0", "--queue", redis.url, "--projects", projectsDir, "--outputs", outputsDir,
    "--max-concurrent-renders", String(LIMIT), "--shutdown-grace", "0", ...extra,
  ];
  const servers: Record<Job["server"], ServeProcess> = {
    chunked: await spawnServe(serveArgs(["--chunk-size", "10"])).ready,
    whole: await spawnServe(serveArgs([])).ready,
  };
  for (let i = 0; i < 3; i++) await addWorker();
  const deadline = setTimeout(() => {
    console.error(`chaos --cluster: not finished within ${TIMEOUT_S} s; stopping`);
    for (const worker of everyWorker) void worker.killHard();
    for (const server of Object.values(servers)) server.child.kill("SIGKILL");
    void redis.stop().finally(() => process.exit(1));
  }, TIMEOUT_S * 1000);

  const started = Date.now();
  const ids = new Map<Job, string>();
  for (const job of JOBS) {
    const accepted = await request(`${servers[job.server].url}/render`, { body: job.body });
    if (accepted.status !== 202) problem(`${job.name}: refused with ${accepted.status} ${JSON.stringify(accepted.json)}`);
    else ids.set(job, accepted.json.requestId as string);
  }
  const idOf = (name: string) => ids.get(JOBS.find((job) => job.name === name)!)!;
  const faults: Fault[] = [];

  // A worker dies in the middle of a chunk: the chunk runs again elsewhere.
  {
    const target = idOf("chunked mp4, 90 frames");
    const { worker, line } = await firstLine(() => workers, (each) => each.verb === "started" && each.id.startsWith(`${target}.chunk.`), started);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killedAt = Date.now();
    await worker.killHard();
    leave(worker);
    await addWorker();
    const again = await firstLine(() => workers, (each) => each.verb === "started" && each.id === line.id, killedAt).catch(() => undefined);
    faults.push({ what: `kill -9 ${worker.name} in the middle of ${line.id.replace(target, "<id>")}`, recoveredAfterMs: again && again.line.at - killedAt });
  }

  // A worker is told to stop in the middle of a render: it hands the task back, another takes it.
  {
    const target = idOf("whole mp4, 90 frames");
    const { worker, line } = await firstLine(() => workers, (each) => each.verb === "started" && each.id === `${target}.render`, started);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    leave(worker);
    const exit = await worker.stop();
    if (exit.code !== 0) problem(`${worker.name} exited with ${exit.code} after SIGTERM: ${exit.stderr}`);
    if (Date.now() - signalledAt > GRACE_S * 1000 + 1000) problem(`${worker.name} took ${seconds(Date.now() - signalledAt)} to stop (grace ${GRACE_S} s)`);
    await addWorker();
    const again = await firstLine(() => workers, (each) => each.verb === "started" && each.id === line.id, signalledAt).catch(() => undefined);
    faults.push({ what: `SIGTERM to ${worker.name} in the middle of <id>.render`, recoveredAfterMs: again && again.line.at - signalledAt });
  }

  // The worker coordinating a chunked request dies: another worker takes the coordination over.
  {
    const target = idOf("chunked png-sequence, 90 frames");
    const { worker } = await firstLine(() => workers, (each) => each.verb === "coordinating" && each.id === target, started);
    await firstLine(() => workers, (each) => each.verb === "started" && each.id.startsWith(`${target}.chunk.`), started);
    const killedAt = Date.now();
    await worker.killHard();
    leave(worker);
    await addWorker();
    const again = await firstLine(() => workers, (each) => each.verb === "coordinating" && each.id === target, killedAt).catch(() => undefined);
    faults.push({ what: `kill -9 ${worker.name}, the coordinator of a chunked request`, recoveredAfterMs: again && again.line.at - killedAt });
  }

  // Redis restarts (its append-only file keeps the queue): both servers answer again, with their limit.
  {
    const stoppedAt = Date.now();
    await redis.pause();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    redis = await startRedis(redisServer, redis.port, { appendOnly: true, dir: redis.dir });
    const answered = await eventually(async () => {
      const counts = await Promise.all(Object.values(servers).map((server) => request(`${server.url}/render/queue`).catch(() => undefined)));
      return counts.every((each) => each?.status === 200 && each.json.maxConcurrentRenders === LIMIT) ? Date.now() : undefined;
    }, 60_000).catch(() => undefined);
    faults.push({ what: "Redis restarted (down 1 s)", recoveredAfterMs: answered && answered - stoppedAt });
  }

  // Every request ends; each finished one is compared with a single-process render.
  const codes: readonly string[] = RENDER_ERROR_CODES;
  const outcomes: string[] = [];
  for (const job of JOBS) {
    const id = ids.get(job);
    if (!id) continue;
    const status = await eventually(async () => {
      const { json } = await request(`${servers[job.server].url}/render/${id}`).catch(() => ({ json: undefined }));
      return json && ["completed", "failed", "cancelled"].includes(json.state) ? json : undefined;
    }, TIMEOUT_S * 1000).catch(() => undefined);
    if (!status) {
      problem(`${job.name}: never ended`);
      outcomes.push(`${job.name}: never ended`);
      continue;
    }
    if (status.state !== "completed") {
      if (!codes.includes(status.error?.code)) problem(`${job.name}: ${status.state} with an undocumented code: ${JSON.stringify(status.error)}`);
      outcomes.push(`${job.name}: ${status.state} (${status.error?.code}: ${status.error?.message})`);
      continue;
    }
    const options = validateRenderOptions((({ composition: _, ...rest }) => rest)(job.body));
    if (!options.ok) throw new Error(JSON.stringify(options.problem));
    const reference = outputPath(referenceDir, id, job.body.format);
    await render({ composition: join(projectsDir, job.body.composition, "index.html"), output: reference, options: options.options });
    const [ours, theirs] = [framesOf(outputPath(outputsDir, id, job.body.format), job.body.format), framesOf(reference, job.body.format)];
    const differing = theirs.filter((frame, i) => !ours[i]?.equals(frame)).length;
    if (ours.length !== theirs.length || differing > 0) problem(`${job.name}: ${ours.length} frames against ${theirs.length}, ${differing} differ from a single-process render`);
    outcomes.push(`${job.name}: finished, ${ours.length} frames, ${differing === 0 && ours.length === theirs.length ? "identical to" : "NOT identical to"} a single-process render`);
  }
  const chaosMs = Date.now() - started;

  clearTimeout(deadline);
  await Promise.all([...Object.values(servers).map((server) => server.stop()), ...workers.map((worker) => worker.stop())]);
  const left = [
    ...(await Promise.all(Object.values(servers).map((server) => leftoverProcesses(server.tag)))).flat(),
    ...(await Promise.all(everyWorker.map((worker) => leftoversOf(worker)))).flat(),
  ];
  if (left.length > 0) problem(`left running: ${left.map((line) => line.slice(0, 80)).join("; ")}`);
  const hidden = [
    ...(await readdir(outputsDir)).filter((name) => name.startsWith(".") && name !== ".compose-chunks"),
    ...(await readdir(join(outputsDir, ".compose-chunks")).catch(() => [])).map((name) => `.compose-chunks/${name}`),
  ];
  if (hidden.length > 0) problem(`chunk directories or staging left in the outputs: ${hidden.join(", ")}`);
  await redis.stop();
  await rm(root, { recursive: true, force: true });

  console.log(`chaos --cluster: ${JOBS.length} requests on 2 servers and 3 workers (${everyWorker.length} started in all), Redis append-only, ${faults.length} faults: ${seconds(chaosMs)}`);
  for (const fault of faults) {
    console.log(`  ${fault.what.padEnd(60)} recovered after ${seconds(fault.recoveredAfterMs)}`);
    if (fault.recoveredAfterMs === undefined) problem(`${fault.what}: not recovered`);
  }
  for (const outcome of outcomes) console.log(`  ${outcome}`);
  console.log(`  left: ${left.length} processes, ${hidden.length} chunk directories or staging in the outputs`);
  if (problems.length > 0) {
    console.error(`chaos --cluster: FAILED\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log("chaos --cluster: ok");
}

await main();
