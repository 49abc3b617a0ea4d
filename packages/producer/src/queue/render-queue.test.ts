/**
 * The in-process queue on its own: slots, FIFO order, positions, cancellation and shutdown. Its
 * jobs are executors the test finishes by hand, so every interleaving is exact; the HTTP tests
 * show the same with real renders.
 */
import { describe, expect, it } from "vitest";
import type { JobEvent } from "../jobs/job-events.js";
import { RenderJob } from "../jobs/render-job.js";
import { QueueClosedError, QueueFullError } from "./render-backend.js";
import { RenderQueue, RETAINED_ENDED_JOBS } from "./render-queue.js";

interface Harness {
  queue: RenderQueue;
  /** Ids in the order their executors started. */
  started: string[];
  /** Ends a running job's executor, as a finished render would. */
  finish(id: string): Promise<void>;
  job(name: string): RenderJob;
  events: Map<string, JobEvent[]>;
}

function harness(maxConcurrentRenders: number, maxQueue = 100): Harness {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const events = new Map<string, JobEvent[]>();
  const queue = new RenderQueue({
    maxConcurrentRenders,
    maxQueue,
    execute: (job, signal) =>
      new Promise<void>((resolve) => {
        started.push(job.id);
        const end = (fail: boolean) => {
          if (fail) job.fail("cancelled", "render cancelled");
          resolve();
        };
        finishers.set(job.id, () => end(false));
        signal.addEventListener("abort", () => end(true), { once: true });
      }),
  });
  return {
    queue,
    started,
    events,
    async finish(id) {
      finishers.get(id)!();
      // Let the queue hand the slot on.
      await new Promise((resolve) => setImmediate(resolve));
    },
    job(name) {
      const job = new RenderJob(name, { composition: name, file: `/p/${name}.html`, output: `/o/${name}.mp4`, options: {} as never });
      events.set(name, []);
      job.subscribe((event) => events.get(name)!.push(event));
      return job;
    },
  };
}

const positions = (events: JobEvent[] = []) => events.flatMap((event) => (event.type === "queued" ? [event.position] : []));

describe("RenderQueue", () => {
  it("runs up to the limit at once and starts the rest in arrival order as slots open", async () => {
    const h = harness(2);
    for (const name of ["a", "b", "c", "d", "e"]) await h.queue.submit(h.job(name));
    expect(h.started).toEqual(["a", "b"]);
    expect(await h.queue.counts()).toEqual({ maxConcurrentRenders: 2, activeRenders: 2, queuedRenders: 3 });
    expect([positions(h.events.get("c")), positions(h.events.get("d")), positions(h.events.get("e"))]).toEqual([[1], [2], [3]]);

    await h.finish("b");
    expect(h.started).toEqual(["a", "b", "c"]);
    expect([positions(h.events.get("d")), positions(h.events.get("e"))]).toEqual([
      [2, 1],
      [3, 2],
    ]);
    await h.finish("a");
    await h.finish("c");
    expect(h.started).toEqual(["a", "b", "c", "d", "e"]);
    expect(await h.queue.counts()).toEqual({ maxConcurrentRenders: 2, activeRenders: 2, queuedRenders: 0 });
  });

  it("takes a cancelled waiting job out of the line, and those behind it move up", async () => {
    const h = harness(1);
    for (const name of ["a", "b", "c"]) await h.queue.submit(h.job(name));
    const cancelled = await h.queue.cancel("b");
    expect(cancelled!.snapshot()).toMatchObject({ state: "cancelled", startedAt: null, position: null });
    expect(positions(h.events.get("c"))).toEqual([2, 1]);
    await h.finish("a");
    expect(h.started).toEqual(["a", "c"]);
  });

  it("aborts a running job on cancel and resolves once its slot is free", async () => {
    const h = harness(1);
    await h.queue.submit(h.job("a"));
    await h.queue.submit(h.job("b"));
    await h.queue.cancel("a");
    expect(h.events.get("a")!.at(-1)).toMatchObject({ type: "failed", code: "cancelled" });
    expect(h.started).toEqual(["a", "b"]);
    expect(await h.queue.counts()).toMatchObject({ activeRenders: 1, queuedRenders: 0 });
    expect(await h.queue.cancel("nobody")).toBeUndefined();
  });

  it("refuses a job when maxQueue are already waiting, but never when a slot is free", async () => {
    const h = harness(1, 1);
    await h.queue.submit(h.job("a"));
    await h.queue.submit(h.job("b"));
    await expect(h.queue.submit(h.job("c"))).rejects.toBeInstanceOf(QueueFullError);
    expect(await h.queue.find("c")).toBeUndefined();
    const none = harness(1, 0);
    await none.queue.submit(none.job("a"));
    await expect(none.queue.submit(none.job("b"))).rejects.toBeInstanceOf(QueueFullError);
  });

  it("on shutdown refuses new jobs, drops the waiting ones and cancels running ones once the grace's time to finish is over", async () => {
    const h = harness(1);
    await h.queue.submit(h.job("a"));
    await h.queue.submit(h.job("b"));
    const before = Date.now();
    await h.queue.shutdown(5200);
    // The last 5 s of the grace are kept for the cancelled renders to unwind.
    expect(Date.now() - before).toBeGreaterThanOrEqual(190);
    expect(Date.now() - before).toBeLessThan(5200);
    expect(h.events.get("b")!.at(-1)).toMatchObject({ type: "failed", code: "cancelled" });
    expect(h.events.get("a")!.at(-1)).toMatchObject({ type: "failed", code: "cancelled" });
    expect(h.started).toEqual(["a"]);
    await expect(h.queue.submit(h.job("c"))).rejects.toBeInstanceOf(QueueClosedError);
  });

  it("forgets the oldest ended jobs beyond the ones it retains, never a waiting or running one", async () => {
    const h = harness(1);
    for (let i = 0; i <= RETAINED_ENDED_JOBS; i++) {
      await h.queue.submit(h.job(`job${i}`));
      await h.finish(`job${i}`);
    }
    await h.queue.submit(h.job("running"));
    await h.queue.submit(h.job("waiting"));
    expect(await h.queue.find("job0")).toBeUndefined();
    for (const id of ["job1", `job${RETAINED_ENDED_JOBS}`, "running", "waiting"]) expect(await h.queue.find(id), id).toBeDefined();
  });

  it("on shutdown waits no longer than the running jobs take", async () => {
    const h = harness(1);
    await h.queue.submit(h.job("a"));
    const shutdown = h.queue.shutdown(60_000);
    await h.finish("a");
    await shutdown;
    expect(h.events.get("a")!.map((event) => event.type)).toEqual(["running"]);
  });
});
