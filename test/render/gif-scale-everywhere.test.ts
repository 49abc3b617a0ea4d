/**
 * `--format gif`, `--gif-loop` and `--scale` where a render is asked for besides `compose
 * render`: the server's requests and batches (`format`, `gifLoop`, `scale`) and the CLI's batch.
 * Each output is a GIF at the scaled size with the loop count asked for.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, request } from "../../packages/producer/test/support/http.js";
import { startServer, type TestServer } from "../../packages/producer/test/support/serve.js";
import { render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { ffprobe, gifTiming, videoStream } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const CARD = compositionHtml({
  id: "card",
  duration: 0.5,
  variables: [{ id: "title", type: "string", label: "Title", default: "One" }],
  backdrop: "#203040",
  body: `<p id="title" style="position:absolute;left:20px;top:60px;font:30px sans-serif;color:#fff"></p>`,
  after: `<script>document.getElementById("title").textContent = __compose.getVariables().title ?? "One";</script>`,
});

async function expectGif(file: string, size: { width: number; height: number }, loop: number | undefined): Promise<void> {
  const bytes = await readFile(file);
  expect(gifTiming(bytes).loop).toBe(loop);
  const stream = videoStream(await ffprobe(file));
  expect({ width: stream.width, height: stream.height }).toEqual(size);
}

let project: TempProject;
let server: TestServer;

beforeAll(async () => {
  project = await createProject({ "index.html": CARD, "rows.json": JSON.stringify([{ title: "One" }, { title: "Two" }]) });
  server = await startServer(["--max-concurrent-renders", "2"], {}, { "card/index.html": CARD });
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  expect(await server?.close()).toEqual([]);
});

const completed = (id: string) =>
  eventually(async () => {
    const status = (await request(`${server.url}/render/${id}`)).json;
    if (status.state === "failed") throw new Error(JSON.stringify(status.error));
    return status.state === "completed" ? status : undefined;
  }, 60_000);

describe("gif and scale through the server", () => {
  it("POST /render with format gif, gifLoop 2 and scale 0.5 makes a 160x90 GIF that repeats twice", async () => {
    const accepted = await request(`${server.url}/render`, { body: { composition: "card", format: "gif", gifLoop: 2, scale: 0.5 } });
    expect(accepted.status).toBe(202);
    const status = await completed(accepted.json.requestId);
    const output = await request(`${server.url}${status.output.url}`);
    expect(output.status).toBe(200);
    expect(output.headers["content-type"]).toBe("image/gif");
    await expectGif(join(server.outputsDir, status.outputName), { width: 160, height: 90 }, 2);
  });

  it("POST /render/batch renders every row at the batch's scale", async () => {
    const accepted = await request(`${server.url}/render/batch`, {
      body: { composition: "card", rows: [{ title: "A" }, { title: "B" }], format: "gif", scale: 2 },
    });
    expect(accepted.status).toBe(202);
    for (const requestId of accepted.json.requestIds as string[]) {
      const status = await completed(requestId);
      await expectGif(join(server.outputsDir, status.outputName), { width: 640, height: 360 }, 0);
    }
  });

  it("refuses a scale outside 0.25 to 4 with a 400 naming the field", async () => {
    const refused = await request(`${server.url}/render`, { body: { composition: "card", scale: 8 } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain("scale");
  });
});

describe("gif and scale in the CLI's batch", () => {
  it("compose render --batch --format gif --scale 0.5 --gif-loop -1 makes one 160x90 GIF a row, played once", async () => {
    const result = await render([project.dir, "--batch", "rows.json", "--format", "gif", "--scale", "0.5", "--gif-loop", "-1", "-o", "gifs/{index}.gif"], {
      cwd: project.dir,
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    for (const index of ["1", "2"]) await expectGif(project.path("gifs", `${index}.gif`), { width: 160, height: 90 }, undefined);
  });
});
