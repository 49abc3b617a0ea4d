/**
 * The library entry point the CLI and the producer server share: render(request, { onEvent,
 * signal }) reports started, progress and finished events that agree with the output, and an
 * aborted signal ends it with RenderError "cancelled", leaving nothing behind.
 */
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderEvent, RenderFinishedEvent } from "@compose/renderer";
import { leftoverProcesses, startNode, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const html = compositionHtml({
  id: "library",
  duration: 0.5,
  backdrop: "#000000",
  css: `#box { position: absolute; left: 0; top: 60px; width: 40px; height: 40px; background: #ffffff; animation: go 0.5s linear both; }
        @keyframes go { to { transform: translateX(280px); } }`,
  body: `<div id="box"></div>`,
});
const longHtml = compositionHtml({ id: "library-long", duration: 3, backdrop: "#000000", body: `<div id="box"></div>` });

const RUNNER = join(REPO_ROOT, "test/support/render-api-runner.mjs");

interface ApiRun {
  events: RenderEvent[];
  result: { ok: boolean; value?: RenderFinishedEvent; error?: { isRenderError: boolean; code: string; message: string } };
  leftovers: string[];
}

/**
 * Calls render() in a child Node process (see render-api-runner.mjs) and collects its events.
 * The run is tagged like a CLI run, so the processes it leaves are found.
 */
async function callRender(request: Record<string, unknown>, abortAfterFrames?: number): Promise<ApiRun> {
  const args = [JSON.stringify(request), ...(abortAfterFrames === undefined ? [] : [String(abortAfterFrames)])];
  const run = startNode([RUNNER, ...args], { timeoutMs: 30_000 });
  const output = await run.result;
  const parsed = output.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string });
  const result = parsed.pop() as unknown as ApiRun["result"] & { type: string };
  if (result?.type !== "result") throw new Error(`runner failed: ${output.stderr}`);
  return { events: parsed as RenderEvent[], result, leftovers: (await leftoverProcesses(run.tag)).map((p) => p.cmdline) };
}

let project: TempProject;
let done: ApiRun;
let aborted: ApiRun;

beforeAll(async () => {
  project = await createProject({ "index.html": html, "long.html": longHtml });
  [done, aborted] = await Promise.all([
    callRender({ composition: project.path("index.html"), output: project.path("frames"), options: { format: "png-sequence", workers: 1 } }),
    callRender({ composition: project.path("long.html"), output: project.path("long.mp4"), options: { workers: 1 } }, 5),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

describe("render() events", () => {
  it("resolves with the finished event, which is also the last event", () => {
    expect(done.result.error).toBeUndefined();
    const finished = done.result.value;
    expect(done.events.at(-1)).toEqual(finished);
    expect(finished).toMatchObject({ type: "finished", format: "png-sequence", frames: 15, width: 320, height: 180 });
    // A CSS animation is a function of time: nothing to replay.
    expect(finished!.history).toBe("skip");
    expect(finished!.durationSeconds).toBeCloseTo(0.5, 6);
  });

  it("starts with a started event describing the render", () => {
    expect(done.events[0]).toMatchObject({
      type: "started",
      composition: "library",
      output: project.path("frames"),
      format: "png-sequence",
      fps: 30,
      quality: "standard",
      width: 320,
      height: 180,
      totalFrames: 15,
      workers: 1,
    });
    expect(done.events.filter((event) => event.type === "started")).toHaveLength(1);
  });

  it("reports capture progress in between, frames increasing up to 15 of 15", () => {
    const progress = done.events.filter((event) => event.type === "progress" && event.stage === "capture");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    const frames = progress.map((event) => (event.type === "progress" ? event.frame : -1));
    expect([...frames].sort((a, b) => a - b)).toEqual(frames);
    expect(progress.at(-1)).toMatchObject({ frame: 15, totalFrames: 15, percent: 100 });
    expect(done.events.filter((event) => event.type === "warning" || event.type === "failed")).toEqual([]);
  });

  it("the finished event's size is the size of what was written", async () => {
    const names = await readdir(project.path("frames"));
    expect(names).toHaveLength(15);
    const sizes = await Promise.all(names.map(async (name) => (await stat(join(project.path("frames"), name))).size));
    expect(done.result.value!.sizeBytes).toBe(sizes.reduce((a, b) => a + b, 0));
  });
});

describe("render() with an aborted signal", () => {
  it("rejects with RenderError code cancelled, after a failed event", () => {
    expect(aborted.result.ok).toBe(false);
    expect(aborted.result.error).toMatchObject({ isRenderError: true, code: "cancelled" });
    expect(aborted.events.some((event) => event.type === "progress")).toBe(true);
    expect(aborted.events.at(-1)).toMatchObject({ type: "failed", code: "cancelled" });
    expect(aborted.events.some((event) => event.type === "finished")).toBe(false);
  });

  it("leaves no output, no staging directory and no process", async () => {
    expect(existsSync(project.path("long.mp4"))).toBe(false);
    expect((await readdir(project.dir)).filter((name) => name.includes("partial"))).toEqual([]);
    expect(aborted.leftovers).toEqual([]);
  });
});
