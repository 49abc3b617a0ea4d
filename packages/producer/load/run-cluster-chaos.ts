/**
 * `npm run chaos -- --cluster`: a cluster on 127.0.0.1 under faults. Redis with append-only
 * persistence, two `compose serve --queue` (one splitting renders into chunks, one not) and three
 * `compose worker`; chunked and whole requests at once; meanwhile a worker is killed with SIGKILL
 * in the middle of a chunk, another is stopped with SIGTERM while it renders, the worker
 * coordinating a request is killed with SIGKILL, and Redis is restarted. A worker that goes is
 * replaced, as a machine that comes back. Then a server is killed with SIGKILL while its request
 * renders and started again (the request must complete and be served), Redis is restarted empty
 * while a request renders (it must end worker-lost leaving no output; a POST sent meanwhile gets
 * 503, and sent again with its Idempotency-Key after the outage renders once), and a worker with
 * other --outputs takes a request (it must fail as outputs-not-shared). It fails (exit 1) unless every request ends finished,
 * with frames identical to a single-process render (decoded and compared), or failed with a
 * documented code, and no chunk directory, staging, temporary file or process is left. It prints
 * the figures: requests, faults and the time each took to recover, outputs compared.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { render } from "@compose/renderer";
import { validateRenderOptions } from "@compose/core";
import { QUEUE_PREFIX, RENDERS_QUEUE } from "../src/distributed/protocol.js";
import { decodeFrames, findRedisServer, leftoversOf, startRedis, startWorker, type RedisServer, type WorkerProcess } from "../test/support/cluster.js";
import { request } from "../test/support/http.js";
import { leftoverProcesses, spawnServe, type ServeProcess } from "../test/support/serve.js";

const TIMEOUT_S = Number(process.env.CHAOS_TIMEOUT_S ?? 420);
const CHUNKED = Number(process.env.CHAOS_CHUNKED ?? 5);
const WHOLE = Number(process.env.CHAOS_WHOLE ?? 3);
const CHUNK_SIZE = 8;
const SECONDS = 2;
const FPS = 30;
const BODY = { composition: "crossing", format: "mp4", crf: 0, quality: "draft", workers: 1 };

/** 2 s: a box crossing the stage, so every one of its 60 frames differs from the others. */
const CROSSING = `<!doctype html>
<html><head><meta charset="utf-8"><style>
  * { margin: 0; padding: 0; }
  #stage { position: relative; width: 320px; height: 180px; overflow: hidden; background: #204080; }
  #box { position: absolute; left: 0; top: 50px; width: 60px; height: 80px; background: #ff4000; animation: cross ${SECONDS}s linear forwards; }
  @keyframes cross { to { left: 260px; transform: rotate(180deg); } }
</style></head>
<body><div id="stage" data-composition-id="crossing" data-width="320" data-height="180" data-duration="${SECONDS}"><div id="box"></div></div></body></html>
`;

interface Sent {
  id: string;
  kind: "chunked" | "whole";
  server: ServeProcess;
  sentAt: number;
  state?: string;
  code?: string;
  message?: string;
  endedAt?: number;
}

interface Fault {
  name: string;
  /** What it hit: a task or request id, or Redis. */
  target: string;
  at: number;
  /** When what it interrupted was running again (or done): undefined when it never was. */
  recoveredAt?: number;
}

const problems: string[] = [];
const problem = (text: string) => void (problems.length < 30 && problems.push(text));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The codes the docs list for a failed render (docs/untrusted-compositions.md) and a lost worker (docs/distributed.md). */
async function documentedCodes(): Promise<Set<string>> {
  const docs = join(import.meta.dirname, "..", "..", "..", "docs");
  const text = (await readFile(join(docs, "untrusted-compositions.md"), "utf8")) + (await readFile(join(docs, "distributed.md"), "utf8"));
  return new Set([...text.matchAll(/`([a-z]+(?:-[a-z]+)+|cancelled)`/g)].map((match) => match[1]!));
}

async function main(): Promise<void> {
  const redisBinary = findRedisServer();
  if (!redisBinary) throw new Error("chaos --cluster needs redis-server (apt-get install redis-server)");
  const root = await mkdtemp(join(tmpdir(), "compose-cluster-chaos-"));
  const projects = join(root, "projects");
  const outputs = join(root, "outputs");
  const workerTmp = join(root, "worker-tmp");
  await mkdir(join(projects, "crossing"), { recursive: true });
  await mkdir(workerTmp);
  await writeFile(join(projects, "crossing", "index.html"), CROSSING);

  const validated = validateRenderOptions({ format: "mp4", crf: 0, quality: "draft", workers: 1 });
  if (!validated.ok) throw new Error(validated.problem.problem);
  await render({ composition: join(projects, "crossing", "index.html"), output: join(root, "reference.mp4"), options: validated.options });
  const reference = decodeFrames(["-i", join(root, "reference.mp4")], 320, 180);

  let redis: RedisServer = await startRedis(redisBinary, undefined, join(root, "redis"));
  const dirs = ["--projects", projects, "--outputs", outputs];
  const serverArgs = ["--port", "0", "--queue", redis.url, "--max-concurrent-renders", "3", "--max-queue", "100", ...dirs];
  // Two servers on one outputs directory: each keeps its state in a store of its own.
  const wholeArgs = [...serverArgs, "--state", join(root, "whole-server.db")];
  const [chunkedServer, firstWholeServer] = await Promise.all([
    spawnServe([...serverArgs, "--chunk-size", String(CHUNK_SIZE)]).ready,
    spawnServe(wholeArgs).ready,
  ]);
  let wholeServer = firstWholeServer;
  const workerArgs = ["--queue", redis.url, "--stall-timeout", "3", "--shutdown-grace", "2", ...dirs];
  let started = 0;
  const everyWorker: WorkerProcess[] = [];
  const newWorker = async () => {
    const worker = await startWorker(`worker-${++started}`, workerArgs, { TMPDIR: workerTmp });
    everyWorker.push(worker);
    return worker;
  };
  let workers: WorkerProcess[] = await Promise.all([newWorker(), newWorker(), newWorker()]);
  const alive = (worker: WorkerProcess) => worker.child.exitCode === null && worker.child.signalCode === null;
  const replace = async (gone: WorkerProcess) => {
    workers = [...workers.filter((worker) => worker !== gone), await newWorker()];
  };
  const renders = new Queue(RENDERS_QUEUE, { connection: { host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: null }, prefix: QUEUE_PREFIX });
  renders.on("error", () => undefined);

  const deadline = Date.now() + TIMEOUT_S * 1000;
  const timer = setTimeout(() => {
    console.error(`chaos --cluster: not finished within ${TIMEOUT_S} s; stopping`);
    for (const worker of everyWorker) void worker.killHard();
    void Promise.all([chunkedServer.stop(), wholeServer.stop(), redis.stop()]).finally(() => process.exit(1));
  }, TIMEOUT_S * 1000);

  const sent: Sent[] = [];
  const send = async (kind: Sent["kind"]) => {
    const server = kind === "chunked" ? chunkedServer : wholeServer;
    const response = await request(`${server.url}/render`, { body: BODY });
    if (response.status !== 202 && response.status !== 200) throw new Error(`POST /render: ${response.status} ${JSON.stringify(response.json)}`);
    sent.push({ id: response.json.requestId as string, kind, server, sentAt: Date.now() });
  };
  for (let i = 0; i < Math.max(CHUNKED, WHOLE); i++) {
    if (i < CHUNKED) await send("chunked");
    if (i < WHOLE) await send("whole");
  }

  // Every request to its end, as its server tells it (a server may not answer while Redis restarts).
  const watching = (async () => {
    while (sent.some((request_) => !request_.endedAt) && Date.now() < deadline) {
      for (const request_ of sent.filter((candidate) => !candidate.endedAt)) {
        const status = await request(`${request_.server.url}/render/${request_.id}`).catch(() => undefined);
        const state = status?.status === 200 ? (status.json.state as string) : undefined;
        if (state !== "completed" && state !== "failed" && state !== "cancelled") continue;
        request_.state = state;
        request_.code = status?.json.error?.code;
        request_.message = status?.json.error?.message;
        request_.endedAt = Date.now();
      }
      await sleep(500);
    }
  })();

  /** Every worker's log lines, newest last. */
  const lines = () => everyWorker.flatMap((worker) => worker.lines().map((line) => ({ ...line, worker }))).sort((a, b) => a.at - b.at);
  const firstLine = async (test: (line: ReturnType<typeof lines>[number]) => boolean, timeoutMs = 120_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = lines().find(test);
      if (found) return found;
      if (Date.now() > until) return undefined;
      await sleep(100);
    }
  };
  /** A task a live worker has started and not yet ended. */
  const running = (filter: (id: string) => boolean) =>
    firstLine(
      (line) =>
        line.verb === "started" &&
        filter(line.id) &&
        alive(line.worker) &&
        !lines().some((later) => later.id === line.id && later.at >= line.at && later.verb !== "started" && later.worker === line.worker),
    );
  /** When a task ran to its end after `since`, on any worker. */
  const taskDone = (id: string, since: number) =>
    firstLine((line) => line.id === id && line.at >= since && (line.verb === "finished" || line.verb === "failed"));

  const faults: Fault[] = [];
  const recoveries: Array<Promise<void>> = [];

  // 1. A worker killed with SIGKILL in the middle of a chunk: the machine dies.
  const chunk = await running((id) => id.includes(".chunk."));
  if (chunk) {
    await sleep(500);
    const fault: Fault = { name: "SIGKILL, mid-chunk", target: chunk.id, at: Date.now() };
    faults.push(fault);
    await chunk.worker.killHard();
    await replace(chunk.worker);
    recoveries.push(taskDone(chunk.id, fault.at).then((line) => void (fault.recoveredAt = line?.at)));
  } else problem("no chunk ran to kill a worker in");

  // 2. A worker stopped with SIGTERM while it renders: it hands its task back.
  const task = await running((id) => id !== chunk?.id);
  if (task) {
    const fault: Fault = { name: "SIGTERM, mid-task", target: task.id, at: Date.now() };
    faults.push(fault);
    await task.worker.stop();
    await replace(task.worker);
    recoveries.push(taskDone(task.id, fault.at).then((line) => void (fault.recoveredAt = line?.at)));
  } else problem("no task ran to stop a worker in");

  // 3. The worker coordinating a request killed with SIGKILL: another worker takes the request over.
  let coordinated: { request: Sent; worker: WorkerProcess } | undefined;
  for (const request of sent.filter((candidate) => candidate.kind === "chunked")) {
    const job = await renders.getJob(request.id).catch(() => undefined);
    const worker = workers.find((candidate) => job?.processedBy?.endsWith(`:${candidate.child.pid}`));
    if (job && !job.finishedOn && worker) {
      coordinated = { request, worker };
      break;
    }
  }
  if (coordinated) {
    const fault: Fault = { name: "SIGKILL, coordinating", target: coordinated.request.id, at: Date.now() };
    faults.push(fault);
    const gone = coordinated.worker;
    await gone.killHard();
    await replace(gone);
    recoveries.push(
      (async () => {
        while (Date.now() < deadline) {
          const job = await renders.getJob(fault.target).catch(() => undefined);
          if (job?.finishedOn || (job?.processedBy && !job.processedBy.endsWith(`:${gone.child.pid}`))) return void (fault.recoveredAt = Date.now());
          await sleep(200);
        }
      })(),
    );
  } else problem("no request was still coordinated to kill its coordinator");

  // 4. Redis restarted (append-only: it comes back with its data).
  const redisFault: Fault = { name: "Redis restart", target: "redis", at: Date.now() };
  faults.push(redisFault);
  const port = redis.port;
  await redis.stop();
  redis = await startRedis(redisBinary, port, join(root, "redis"));
  recoveries.push(
    (async () => {
      while (Date.now() < deadline) {
        const answers = await Promise.all([chunkedServer, wholeServer].map((server) => request(`${server.url}/render/queue`).catch(() => undefined)));
        if (answers.every((answer) => answer?.status === 200)) return void (redisFault.recoveredAt = Date.now());
        await sleep(200);
      }
    })(),
  );

  await Promise.all([watching, ...recoveries]);
  await renders.close();

  const statusOf = async (server: ServeProcess, id: string) => (await request(`${server.url}/render/${id}`).catch(() => undefined))?.json;
  const endOf = async (server: () => ServeProcess, id: string) => {
    while (Date.now() < deadline) {
      const now = await statusOf(server(), id);
      if (["completed", "failed", "cancelled"].includes(now?.state)) return now;
      await sleep(300);
    }
    return undefined;
  };
  const post = async (server: ServeProcess, headers: Record<string, string> = {}) => request(`${server.url}/render`, { body: BODY, headers });

  // 5. The whole server killed with SIGKILL while its request renders, then started again on the same directories.
  const followed = (await post(wholeServer)).json.requestId as string;
  await firstLine((line) => line.id === `${followed}.render` && line.verb === "started");
  const serverKill: Fault = { name: "SIGKILL, compose serve", target: followed, at: Date.now() };
  faults.push(serverKill);
  await wholeServer.stop("SIGKILL");
  await leftoverProcesses(wholeServer.tag, 0);
  wholeServer = await spawnServe(wholeArgs).ready;
  const afterKill = await endOf(() => wholeServer, followed);
  if (afterKill?.state === "completed" && (await request(`${wholeServer.url}/render/${followed}/output`)).status === 200) serverKill.recoveredAt = Date.now();
  else problem(`after kill -9 of its server, request ${followed} ended ${afterKill?.state} ${afterKill?.error?.code ?? ""}`);

  // 6. Redis restarted without persistence while a request renders; a POST sent meanwhile is refused.
  const lost = (await post(wholeServer)).json.requestId as string;
  await firstLine((line) => line.id === `${lost}.render` && line.verb === "started");
  const wipe: Fault = { name: "Redis restart, emptied", target: lost, at: Date.now() };
  faults.push(wipe);
  await redis.stop();
  const key = { "idempotency-key": "cluster-chaos-outage" };
  const duringOutage = await post(wholeServer, key);
  if (duringOutage.status !== 503) problem(`a POST while Redis is down: ${duringOutage.status} ${JSON.stringify(duringOutage.json)}`);
  redis = await startRedis(redisBinary, port);
  const lostEnd = await endOf(() => wholeServer, lost);
  if (lostEnd?.error?.code !== "worker-lost") problem(`a request Redis forgot ended ${lostEnd?.state} ${lostEnd?.error?.code ?? ""}, not worker-lost`);
  await firstLine((line) => line.id === `${lost}.render` && line.verb !== "started");
  const retried = await (async () => {
    while (Date.now() < deadline) {
      const answer = await post(wholeServer, key);
      if (answer.status === 202) return answer.json.requestId as string;
      await sleep(300);
    }
    return undefined;
  })();
  const replayed = retried && (await post(wholeServer, key)).json.requestId;
  if (!retried || replayed !== retried) problem(`the POST retried with its Idempotency-Key: ${retried}, then ${replayed}`);
  const retriedEnd = retried ? await endOf(() => wholeServer, retried) : undefined;
  if (retriedEnd?.state === "completed") wipe.recoveredAt = Date.now();
  else problem(`the retried request ended ${retriedEnd?.state} ${retriedEnd?.error?.code ?? ""}`);
  const written = (await readdir(outputs)).filter((name) => !name.startsWith("."));
  if (written.includes(`${lost}.mp4`)) problem(`request ${lost} was told worker-lost, but its output was left in the outputs`);
  if (written.length !== sent.filter((request_) => request_.state === "completed").length + 2) problem(`outputs after the outage: ${written.length} files`);

  // 7. A worker that does not see the servers' outputs directory: the request it takes fails as outputs-not-shared.
  await Promise.all(workers.map((worker) => worker.stop()));
  const elsewhere = await startWorker(
    "elsewhere",
    workerArgs.map((arg) => (arg === outputs ? join(root, "elsewhere-outputs") : arg)),
    { TMPDIR: workerTmp },
  );
  everyWorker.push(elsewhere);
  workers = [elsewhere];
  const misplaced = (await post(wholeServer)).json.requestId as string;
  const misplacedEnd = await endOf(() => wholeServer, misplaced);
  if (misplacedEnd?.error?.code !== "outputs-not-shared")
    problem(`a request taken by a worker with other --outputs ended ${misplacedEnd?.state} ${misplacedEnd?.error?.code ?? ""}`);

  const codes = await documentedCodes();
  let compared = 0;
  let identical = 0;
  for (const request_ of sent) {
    if (!request_.endedAt) {
      problem(`${request_.kind} request ${request_.id} did not end`);
      continue;
    }
    if (request_.state === "failed" || request_.state === "cancelled") {
      if (!request_.code || !codes.has(request_.code) || request_.code === "internal-error")
        problem(`${request_.kind} request ${request_.id} failed with an undocumented code: ${request_.code}: ${request_.message}`);
      continue;
    }
    compared++;
    const frames = decodeFrames(["-i", join(outputs, `${request_.id}.mp4`)], 320, 180);
    const differ = reference.flatMap((frame, n) => (frame.equals(frames[n]!) ? [] : [n]));
    if (frames.length === reference.length && differ.length === 0) identical++;
    else problem(`${request_.kind} request ${request_.id}: ${frames.length} frames, ${differ.length} differ from a single-process render`);
  }

  await Promise.all([chunkedServer.stop(), wholeServer.stop(), ...workers.map((worker) => worker.stop())]);
  clearTimeout(timer);
  const left = [
    ...(await leftoverProcesses(chunkedServer.tag)),
    ...(await leftoverProcesses(wholeServer.tag)),
    ...(await Promise.all(everyWorker.map((worker) => leftoversOf(worker)))).flat(),
  ];
  if (left.length > 0) problem(`left running: ${left.map((line) => line.slice(0, 80)).join("; ")}`);
  const chunkDirs = await readdir(join(outputs, ".compose-chunks")).catch(() => []);
  if (chunkDirs.length > 0) problem(`chunk directories left: ${chunkDirs.join(", ")}`);
  const staging = (await readdir(outputs)).filter((name) => name.startsWith(".") && name !== ".compose-chunks" && name !== ".compose-server");
  if (staging.length > 0) problem(`staging left in the outputs: ${staging.join(", ")}`);
  const temporary = await readdir(workerTmp);
  if (temporary.length > 0) problem(`left in the workers' TMPDIR: ${temporary.join(", ")}`);
  await redis.stop();
  await rm(root, { recursive: true, force: true });

  const ended = sent.filter((request_) => request_.endedAt);
  const last = Math.max(...ended.map((request_) => request_.endedAt!)) - Math.min(...sent.map((request_) => request_.sentAt));
  console.log(
    `chaos --cluster: ${sent.length} requests (${CHUNKED} in chunks of ${CHUNK_SIZE} frames, ${WHOLE} whole; ${SECONDS * FPS} frames each), 2 servers, 3 workers, Redis append-only: ${seconds(last)}`,
  );
  console.log(`  ${"request".padEnd(8)} ${"ended".padEnd(10)} ${"after".padStart(8)}  code`);
  for (const request_ of sent) {
    console.log(
      `  ${request_.kind.padEnd(8)} ${(request_.state ?? "running").padEnd(10)} ${(request_.endedAt ? seconds(request_.endedAt - request_.sentAt) : "-").padStart(8)}  ${request_.code ?? ""}`,
    );
  }
  console.log(`  ${"fault".padEnd(24)} ${"hit".padEnd(48)} recovered after`);
  for (const fault of faults)
    console.log(`  ${fault.name.padEnd(24)} ${fault.target.padEnd(48)} ${fault.recoveredAt ? seconds(fault.recoveredAt - fault.at) : "never"}`);
  console.log(`  a worker with other --outputs: the request it took ended ${misplacedEnd?.state} ${misplacedEnd?.error?.code ?? ""}`);
  console.log(
    `  outputs compared with a single-process render, decoded frame by frame: ${identical}/${compared} identical; left: ${left.length} processes, ${chunkDirs.length} chunk directories, ${staging.length} staging, ${temporary.length} temporary entries`,
  );
  if (problems.length > 0) {
    console.error(`chaos --cluster: FAILED\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log("chaos --cluster: ok");
}

await main();
