/**
 * `npm run load`: a bounded load test of `compose serve` on 127.0.0.1. It sends LOAD_REQUESTS
 * (50) renders of a tiny composition at once to a server limited to LOAD_LIMIT (2) concurrent
 * renders, most as event streams and some as POST /render followed by polling, while sampling
 * GET /render/queue. It fails (exit 1) if a request is lost, ends other than finished, starts out
 * of FIFO order, if an output cannot be fetched, if the queue counts ever disagree with what the
 * clients know, or if the whole run takes longer than LOAD_TIMEOUT_S (300). It prints throughput
 * and the wait for a slot (p50, p95, max).
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TINY } from "../test/support/compositions.js";
import { eventually, openStream, request, type EventStreamClient } from "../test/support/http.js";
import { leftoverProcesses, spawnServe } from "../test/support/serve.js";

const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 50);
const LIMIT = Number(process.env.LOAD_LIMIT ?? 2);
const TIMEOUT_S = Number(process.env.LOAD_TIMEOUT_S ?? 300);
/** Every fifth request is submitted with POST /render and polled, the rest are streams. */
const POLLED_EVERY = 5;

const problems: string[] = [];
const problem = (text: string) => {
  if (problems.length < 20) problems.push(text);
};

interface Outcome {
  id: string;
  via: "stream" | "poll";
  sentAt: number;
  state: string;
  size: number;
  /** From the server's own record: when the request arrived, got its slot and ended. */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "compose-load-"));
  await mkdir(join(root, "projects", "tiny"), { recursive: true });
  await writeFile(join(root, "projects", "tiny", "index.html"), TINY);
  const args = ["--port", "0", "--max-concurrent-renders", String(LIMIT), "--projects", join(root, "projects"), "--outputs", join(root, "outputs")];
  const server = await spawnServe(args).ready;
  const deadline = setTimeout(() => {
    console.error(`load: not finished within ${TIMEOUT_S} s; stopping`);
    server.child.kill("SIGKILL");
    void leftoverProcesses(server.tag, 0).finally(() => process.exit(1));
  }, TIMEOUT_S * 1000);

  const base = server.url;
  const body = { composition: "tiny", quality: "draft", workers: 1 };
  let sent = 0;
  let ended = 0;
  let samples = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      // A request the server counts was sent before it answered and had not ended before it was
      // asked, so its count can be no more than sent-after minus ended-before.
      const endedBefore = ended;
      const counts = (await request(`${base}/render/queue`)).json;
      const outstanding = sent - endedBefore;
      samples++;
      if (counts.maxConcurrentRenders !== LIMIT) problem(`queue reports a limit of ${counts.maxConcurrentRenders}`);
      if (counts.activeRenders > LIMIT) problem(`${counts.activeRenders} renders active, over the limit of ${LIMIT}`);
      if (counts.queuedRenders > 0 && counts.activeRenders < LIMIT) problem(`a slot is idle while ${counts.queuedRenders} wait`);
      if (counts.activeRenders + counts.queuedRenders > outstanding) {
        problem(`queue counts ${counts.activeRenders}+${counts.queuedRenders} exceed the ${outstanding} requests the clients still wait for`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  const started = performance.now();
  const runOne = async (i: number): Promise<Outcome> => {
    const via = i % POLLED_EVERY === POLLED_EVERY - 1 ? "poll" : "stream";
    sent++;
    const sentAt = Date.now();
    let id: string;
    if (via === "stream") {
      const client: EventStreamClient = await openStream(base, body);
      if (client.status !== 200) throw new Error(`stream ${i} refused: ${client.status} ${JSON.stringify(client.error)}`);
      const events = await client.ended;
      id = events[0]?.data.requestId;
      const terminal = events.filter((e) => e.event === "finished" || e.event === "failed");
      if (terminal.length !== 1 || events.at(-1)?.event !== "finished") problem(`stream ${i} ended with ${JSON.stringify(events.at(-1))}`);
      const queued = events.filter((e) => e.event === "queued").map((e) => e.data.position);
      if (queued.some((position, k) => k > 0 && position >= queued[k - 1]!)) problem(`stream ${i} moved back in the queue: ${queued}`);
      if (events.findIndex((e) => e.event === "started") > events.findIndex((e) => e.event === "progress")) problem(`stream ${i}: progress before started`);
    } else {
      const accepted = await request(`${base}/render`, { body });
      if (accepted.status !== 202) throw new Error(`request ${i} refused: ${accepted.status} ${accepted.body}`);
      id = accepted.json.requestId;
      await eventually(async () => {
        const { state } = (await request(`${base}/render/${id}`)).json;
        return state === "queued" || state === "running" ? undefined : state;
      }, TIMEOUT_S * 1000);
    }
    ended++;
    const status = (await request(`${base}/render/${id}`)).json;
    if (status.state !== "completed") problem(`request ${i} (${via}) ended ${status.state}: ${JSON.stringify(status.error)}`);
    const head = await request(`${base}${status.output?.url}`, { headers: { range: "bytes=0-0" } });
    if (head.status !== 206 || head.headers["content-range"] !== `bytes 0-0/${status.output?.size}`) {
      problem(`output of request ${i} not served: ${head.status} ${head.headers["content-range"]}`);
    }
    return {
      id,
      via,
      sentAt,
      state: status.state,
      size: status.output?.size ?? 0,
      createdAt: Date.parse(status.createdAt),
      startedAt: Date.parse(status.startedAt),
      finishedAt: Date.parse(status.finishedAt),
    };
  };
  const outcomes = await Promise.all(Array.from({ length: REQUESTS }, (_, i) => runOne(i)));
  const wallMs = performance.now() - started;
  sampling = false;
  await sampler;

  const finalCounts = (await request(`${base}/render/queue`)).json;
  if (finalCounts.activeRenders !== 0 || finalCounts.queuedRenders !== 0) problem(`queue not empty at the end: ${JSON.stringify(finalCounts)}`);
  if (new Set(outcomes.map((o) => o.id)).size !== REQUESTS) problem("request ids are not unique");
  // FIFO: whoever arrived first got a slot no later than anyone who arrived after it.
  const byArrival = [...outcomes].sort((a, b) => a.createdAt - b.createdAt);
  for (let k = 1; k < byArrival.length; k++) {
    const [earlier, later] = [byArrival[k - 1]!, byArrival[k]!];
    if (earlier.createdAt < later.createdAt && earlier.startedAt > later.startedAt) problem(`${later.id} started before ${earlier.id}, which arrived first`);
  }

  const exit = await server.stop("SIGTERM");
  clearTimeout(deadline);
  const left = await leftoverProcesses(server.tag);
  if (exit.code !== 0) problem(`the server exited with ${exit.code}: ${exit.stderr}`);
  if (left.length > 0) problem(`processes left running: ${left.join("; ")}`);
  await rm(root, { recursive: true, force: true });

  const waits = outcomes.map((o) => o.startedAt - o.createdAt);
  const renders = outcomes.map((o) => o.finishedAt - o.startedAt);
  const completed = outcomes.filter((o) => o.state === "completed").length;
  console.log(
    `load: ${REQUESTS} requests (${outcomes.filter((o) => o.via === "stream").length} streams, ${outcomes.filter((o) => o.via === "poll").length} polled), limit ${LIMIT}, 320x180 0.5 s mp4`,
  );
  console.log(
    `load: ${completed}/${REQUESTS} completed in ${seconds(wallMs)}: ${(completed / (wallMs / 1000)).toFixed(2)} renders/s (${((completed / wallMs) * 60_000).toFixed(1)} per minute)`,
  );
  console.log(`load: wait for a slot p50 ${seconds(percentile(waits, 50))}, p95 ${seconds(percentile(waits, 95))}, max ${seconds(Math.max(...waits))}`);
  console.log(
    `load: render time p50 ${seconds(percentile(renders, 50))}, p95 ${seconds(percentile(renders, 95))}; ${samples} queue samples consistent: ${problems.length === 0 ? "yes" : "no"}`,
  );
  if (problems.length > 0) {
    for (const text of problems) console.error(`load: FAIL ${text}`);
    process.exit(1);
  }
  console.log("load: ok (no request lost, FIFO kept, queue counts consistent, outputs served)");
}

await main();
