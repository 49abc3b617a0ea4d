/**
 * What the preview's render stream says, read over HTTP as the page reads it: the producer's
 * events, named by their type, each one the OpenAPI document allows; a failure the renderer did
 * not explain is `internal-error`, as everywhere else.
 */
import { execFileSync } from "node:child_process";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { renderExecutor } from "@compose/producer/render-executor";
import { render } from "@compose/renderer";
import { afterEach, describe, expect, it } from "vitest";
import { startPreviewServer, type PreviewServer } from "../../packages/cli/src/preview/server.js";
import { eventProblems } from "../../packages/producer/test/support/openapi.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const INDEX_HTML = compositionHtml({
  id: "main",
  duration: 0.3,
  css: "#box { position: absolute; left: 20px; top: 20px; width: 40px; height: 40px; background: #00ff00; }",
  body: `<div id="box" data-start="0" data-duration="0.3" data-track-index="0"></div>`,
});

let project: TempProject | undefined;
let server: PreviewServer | undefined;
afterEach(async () => {
  await server?.close();
  await project?.remove();
  server = project = undefined;
});

async function startPreview(run: typeof render): Promise<string> {
  project = await createProject({ "index.html": INDEX_HTML }, { prefix: "compose-preview-events-" });
  server = await startPreviewServer({
    entryFile: project.path("index.html"),
    pathArg: project.dir,
    pathIsFolder: false,
    cwd: project.dir,
    host: "127.0.0.1",
    port: 0,
    runtimeBundle: () => "",
    executeRender: renderExecutor({}, run),
    nameOf: () => "index",
    planMedia: async () => [],
    framesDir: project.path("frames"),
  });
  return server.url;
}

interface StreamedEvent {
  /** The SSE `event:` name. */
  name: string;
  data: { type: string; requestId: string } & Record<string, unknown>;
}

/** Starts a render as the page does and reads its whole stream, which ends with its last event. */
async function renderFromPage(url: string): Promise<{ answer: { id: string; output: string }; events: StreamedEvent[] }> {
  const started = await fetch(new URL("/__compose/renders", url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ format: "mp4", quality: "draft", workers: 1 }),
  });
  expect(started.status).toBe(202);
  const answer = (await started.json()) as { id: string; output: string };
  const stream = await fetch(new URL(`/__compose/renders/${answer.id}/events`, url));
  expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const text = await stream.text();
  const events = text
    .split("\n\n")
    .filter((block) => block.startsWith("event: "))
    .map((block) => {
      const [nameLine, dataLine] = block.split("\n") as [string, string];
      return { name: nameLine.slice("event: ".length), data: JSON.parse(dataLine.slice("data: ".length)) };
    });
  return { answer, events };
}

describe("the preview's render stream", () => {
  it("is the server's: every event named by its type, with the request's id, each one the OpenAPI document allows", async () => {
    const url = await startPreview(render);
    const { answer, events } = await renderFromPage(url);
    const names = events.map((event) => event.name);
    expect(names.filter((name) => name !== "progress" && name !== "warning")).toEqual(["running", "started", "finished"]);
    for (const { name, data } of events) {
      expect(data.type).toBe(name);
      expect(data.requestId).toBe(answer.id);
      expect(eventProblems(data), name).toEqual([]);
    }
    const finished = events.at(-1)!.data;
    // The output as the page downloads it from the preview, not a path on disk.
    expect(finished).toMatchObject({ frames: 9, output: answer.output });
    expect(await readdir(join(project!.dir, "renders"))).toEqual([decodeURIComponent(answer.output.split("/").pop()!)]);
  }, 120_000);

  it("ends a render that failed for a reason the renderer did not give with internal-error", async () => {
    const url = await startPreview(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'width')");
    });
    const { answer, events } = await renderFromPage(url);
    expect(events.map((event) => event.data)).toEqual([
      { type: "running", requestId: answer.id },
      {
        type: "failed",
        requestId: answer.id,
        code: "internal-error",
        message: "Cannot read properties of undefined (reading 'width')",
        problems: [{ code: "internal-error", message: "Cannot read properties of undefined (reading 'width')" }],
      },
    ]);
    for (const { data } of events) expect(eventProblems(data)).toEqual([]);
  });

  it("answers an entry replaced by a FIFO, and a renders folder that is one, in JSON without a path of the machine", async () => {
    const url = await startPreview(render);
    await rm(project!.path("index.html"));
    execFileSync("mkfifo", [project!.path("index.html")]);
    const { events } = await renderFromPage(url);
    expect(events.at(-1)!.data).toMatchObject({ type: "failed", code: "invalid-composition" });
    expect(JSON.stringify(events)).not.toContain(project!.dir);

    await rm(project!.path("renders"), { recursive: true, force: true });
    execFileSync("mkfifo", [project!.path("renders")]);
    const refused = await fetch(new URL("/__compose/renders", url), { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      error: { code: "invalid-request", message: "renders is not a folder: the preview writes its renders there; move it away or render with compose render" },
    });
  }, 120_000);
});
