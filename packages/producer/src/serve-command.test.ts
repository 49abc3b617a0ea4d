/**
 * `compose serve` as a process: where its concurrency limit comes from, what it refuses at
 * start, its token from the environment, and SIGTERM (finish or cancel, never half an output).
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openStream, request } from "../test/support/http.js";
import { outputEntries, spawnServe, startServer, type TestServer } from "../test/support/serve.js";

let server: TestServer | undefined;
afterEach(async () => {
  if (server) expect(await server.close()).toEqual([]);
  server = undefined;
});

async function limitOf(args: string[], env: Record<string, string> = {}): Promise<number> {
  const own = await startServer(args, env);
  const { json } = await request(`${own.url}/render/queue`);
  expect(await own.close()).toEqual([]);
  return json.maxConcurrentRenders;
}

describe("the concurrency limit", () => {
  it("is 2 by default, on 127.0.0.1", async () => {
    server = await startServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await request(`${server.url}/render/queue`)).json).toEqual({ maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 });
  });

  it("comes from PRODUCER_MAX_CONCURRENT_RENDERS, and the flag wins over it", async () => {
    const [fromEnv, fromFlag, flagOverNonsense] = await Promise.all([
      limitOf([], { PRODUCER_MAX_CONCURRENT_RENDERS: "3" }),
      limitOf(["--max-concurrent-renders", "5"], { PRODUCER_MAX_CONCURRENT_RENDERS: "3" }),
      limitOf(["--max-concurrent-renders", "10"], { PRODUCER_MAX_CONCURRENT_RENDERS: "banana" }),
    ]);
    expect([fromEnv, fromFlag, flagOverNonsense]).toEqual([3, 5, 10]);
  });

  it("refuses anything but an integer from 1 to 10 at start, in one line, with exit code 2", async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [["--max-concurrent-renders", "0"], {}, /--max-concurrent-renders must be an integer from 1 to 10 \(got 0\)/],
      [["--max-concurrent-renders", "11"], {}, /--max-concurrent-renders .*\(got 11\)/],
      [["--max-concurrent-renders", "2.5"], {}, /--max-concurrent-renders .*\(got 2\.5\)/],
      [[], { PRODUCER_MAX_CONCURRENT_RENDERS: "abc" }, /PRODUCER_MAX_CONCURRENT_RENDERS must be an integer from 1 to 10 \(got abc\)/],
      [[], { PRODUCER_MAX_CONCURRENT_RENDERS: "0" }, /PRODUCER_MAX_CONCURRENT_RENDERS .*\(got 0\)/],
      [["--port", "70000"], {}, /--port must be an integer from 0 to 65535/],
      [["--max-queue", "-1"], {}, /--max-queue must be an integer/],
      [["--projects", "/no/such/dir"], {}, /--projects \/no\/such\/dir is not a directory/],
      [["--token", ""], {}, /--token must be a non-empty token/],
    ];
    const exits = await Promise.all(cases.map(([args, env]) => spawnServe(["--port", "0", ...args], { env }).exited));
    exits.forEach((exit, i) => {
      expect(exit.code, exit.stderr).toBe(2);
      expect(exit.stdout).toBe("");
      expect(exit.stderr).toMatch(new RegExp(`^error: ${cases[i]![2].source}`));
      expect(exit.stderr.trimEnd().split("\n")).toHaveLength(1);
    });
  });
});

describe("the token from COMPOSE_TOKEN", () => {
  it("is required when set", async () => {
    server = await startServer([], { COMPOSE_TOKEN: "from-env" });
    expect((await request(`${server.url}/render/queue`)).status).toBe(401);
    expect((await request(`${server.url}/render/queue`, { token: "from-env" })).status).toBe(200);
    expect((await request(`${server.url}/health`)).status).toBe(200);
  });
});

describe("SIGTERM", () => {
  it("lets a running render finish within the grace period, cancels the waiting ones, then exits 0", async () => {
    server = await startServer(["--max-concurrent-renders", "1", "--shutdown-grace", "30"]);
    const running = await openStream(server.url, { composition: "tiny", quality: "draft" });
    const runningId = (await running.next("running")).data.requestId;
    const waiting = await openStream(server.url, { composition: "tiny" });
    await waiting.next("queued");

    server.child.kill("SIGTERM");
    const [runningEvents, waitingEvents] = await Promise.all([running.ended, waiting.ended]);
    expect(runningEvents[runningEvents.length - 1]!.data).toMatchObject({ type: "finished", requestId: runningId });
    expect(waitingEvents[waitingEvents.length - 1]!.data).toMatchObject({ type: "failed", code: "cancelled" });
    // No new work once shutting down: the port is closed or the request is refused.
    const late = await request(`${server.url}/render`, { body: { composition: "tiny" } }).then(
      (response) => String(response.status),
      (error: NodeJS.ErrnoException) => String(error.code),
    );
    expect(late).toMatch(/^(ECONNREFUSED|ECONNRESET|503)$/);

    const exit = await server.exited;
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stdout).toMatch(/SIGTERM: no new requests; finishing 1 running render\(s\) within 30 s\n.*stopped\n$/);
    expect(await outputEntries(server.outputsDir)).toEqual([`${runningId}.mp4`]);
  });

  it("ends within its grace while its renders are stuck, having cancelled them with room to clean up", async () => {
    server = await startServer(["--shutdown-grace", "8"]);
    const stuck = await Promise.all([0, 1].map(() => openStream(server!.url, { composition: "blocker.html", quality: "draft" })));
    await Promise.all(stuck.map((stream) => stream.next("running")));

    const signalled = Date.now();
    const exit = await server.stop("SIGTERM");
    const tookMs = Date.now() - signalled;
    expect(exit.code, exit.stderr).toBe(0);
    expect(tookMs).toBeLessThan(8000);
    // The renders were cancelled in time to clean up, not cut short at the end of the grace.
    expect(exit.stdout).toMatch(/stopped\n$/);
    for (const stream of stuck) expect((await stream.ended).at(-1)!.data).toMatchObject({ type: "failed", code: "cancelled" });
    expect(await outputEntries(server.outputsDir)).toEqual([]);
  });

  it("cancels renders still running when the grace period ends, leaving no output at all", async () => {
    server = await startServer(["--shutdown-grace", "0"]);
    const stuck = await openStream(server.url, { composition: "blocker.html" });
    const id = (await stuck.next("running")).data.requestId;

    const exit = await server.stop("SIGTERM");
    expect(exit.code, exit.stderr).toBe(0);
    const events = await stuck.ended;
    expect(events[events.length - 1]!.data).toMatchObject({ type: "failed", code: "cancelled", requestId: id });
    expect(existsSync(`${server.outputsDir}/${id}.mp4`)).toBe(false);
    // Not even the staging directory a render writes into before it commits.
    expect(await outputEntries(server.outputsDir)).toEqual([]);
  });
});
