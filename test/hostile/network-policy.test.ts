/**
 * The network policy is enforced in the browser: under `public` (serve's and worker's default) a
 * composition cannot load anything from the machine's loopback network, by <img>, <iframe>,
 * fetch() in a worker, a web font or CSS; each refused host is reported once as a warning; the
 * render itself goes on. `compose render` allows everything unless told otherwise.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedRender, type IsolatedRun } from "../support/api-run.js";
import { limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/** A service on the loopback network that a composition should not reach: it paints red. */
let service: Server;
let port: number;
const hits: string[] = [];
/** Requests the service had received once the refusing renders were done. */
let hitsWhileRefused = -1;
const RED_PNG = (() => {
  const png = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([255, 0, 0, 255], i);
  return PNG.sync.write(png);
})();

let project: TempProject;
const runs = new Map<string, IsolatedRun>();
const cli = new Map<string, CliResult>();

function hostile(): string {
  const base = `http://127.0.0.1:${port}`;
  return compositionHtml({
    id: "reach",
    duration: 0.2,
    backdrop: "#000000",
    css: `@font-face { font-family: Leak; src: url(${base}/font.woff2); } #text { font-family: Leak; }
      #css { position: absolute; left: 160px; top: 0; width: 160px; height: 90px; background: url(${base}/css.png); background-size: cover; }`,
    body: `<img id="img" src="${base}/secret.png" style="position:absolute;left:0;top:0;width:160px;height:90px">
      <div id="css"></div>
      <iframe src="http://localhost:${port}/frame.html" style="position:absolute;left:0;top:90px;width:160px;height:90px;border:0"></iframe>
      <div id="text">text</div>`,
    after: `<script>new Worker(URL.createObjectURL(new Blob(['fetch("${base}/from-worker").catch(() => {})'])));
      new WebSocket("ws://127.0.0.1:${port}/socket");</script>`,
  });
}

beforeAll(async () => {
  service = createServer((request, response) => {
    hits.push(request.url ?? "");
    if (request.url?.endsWith(".html")) response.end(`<body style="margin:0;background:#ff0000"></body>`);
    else (response.setHeader("content-type", "image/png"), response.end(RED_PNG));
  });
  service.on("upgrade", (request, socket) => {
    hits.push(`upgrade ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  port = (service.address() as AddressInfo).port;
  project = await createProject({
    "reach/index.html": hostile(),
    "video/index.html": compositionHtml({
      id: "video",
      duration: 0.2,
      body: `<video src="http://127.0.0.1:${port}/clip.mp4" data-start="0" data-duration="0.2"></video>`,
    }),
  });
  const composition = project.path("reach", "index.html");
  const operator = (mode: string, allowHosts: string[] = []) => ({ mode, allowHosts, acceptRequestHosts: false });
  await limited(2, [
    async () =>
      runs.set(
        "public",
        await isolatedRender(project.path("runs", "public"), {
          composition,
          output: "frames",
          options: { format: "png-sequence", workers: 1 },
          network: operator("public"),
        }),
      ),
    async () =>
      runs.set(
        "video",
        await isolatedRender(project.path("runs", "video"), {
          composition: project.path("video", "index.html"),
          output: "v.mp4",
          options: { workers: 1 },
          network: operator("public"),
        }),
      ),
    async () =>
      runs.set(
        "narrowed",
        await isolatedRender(project.path("runs", "narrowed"), {
          composition,
          output: "frames",
          options: { format: "png-sequence", workers: 1, network: "none" },
        }),
      ),
  ]);
  hitsWhileRefused = hits.length;
  // The service answers every request with a PNG, so the font it serves fails to load as a font.
  cli.set(
    "allow-host",
    await render([
      composition,
      "--output",
      project.path("out", "allowed"),
      "--format",
      "png-sequence",
      "--workers",
      "1",
      "--network",
      "public",
      "--allow-host",
      "127.0.0.1",
      "--allow-host",
      "localhost",
      "--allow-missing-assets",
    ]),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await new Promise((resolve) => service?.close(resolve));
  await project?.remove();
});

async function pixel(file: string, x: number, y: number): Promise<number[]> {
  const png = PNG.sync.read(await readFile(file));
  const at = (y * png.width + x) * 4;
  return [...png.data.subarray(at, at + 4)];
}

describe("network public (the server's default)", () => {
  it("the render completes, and nothing on the loopback network was reached: no request arrived, nothing red was drawn", async () => {
    const run = runs.get("public")!;
    expect(run.error, JSON.stringify(run.error)).toBeUndefined();
    for (const [x, y] of [
      [10, 10],
      [200, 10],
      [10, 100],
    ] as const) {
      expect(await pixel(project.path("runs", "public", "out", "frames", "frame_000000.png"), x, y)).not.toEqual([255, 0, 0, 255]);
    }
  });

  it("each refused host is one warning, naming it and the request options that allow it (a library or HTTP caller typed no flags)", () => {
    const warnings = runs.get("public")!.events.filter((event) => event.type === "warning" && event.code === "network-refused");
    const messages = warnings.map((event) => (event as { message: string }).message);
    expect(messages).toHaveLength(2);
    // A host's first refused request is the one named: for 127.0.0.1 the image, or the WebSocket's
    // tunnel through the proxy (a CONNECT, which carries no scheme of its own: named https).
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^refused https?://127\\.0\\.0\\.1:${port}/.*: a loopback address \\(allowed by allowHosts 127\\.0\\.0\\.1 or network all\\)$`),
        ),
        expect.stringMatching(new RegExp(`^refused http://localhost:${port}/frame\\.html: it resolves to .*, a loopback address`)),
      ]),
    );
  });

  it("a request may narrow the policy (network none)", () => {
    const run = runs.get("narrowed")!;
    expect(run.error).toBeUndefined();
    expect(run.events.filter((event) => event.type === "warning" && event.code === "network-refused")).toHaveLength(2);
  });

  it("no request of these renders reached the service: not the image, the CSS, the iframe, the font, the worker's fetch, nor a WebSocket", () => {
    expect(hitsWhileRefused).toBe(0);
  });
});

describe("media that ffmpeg would read itself", () => {
  it("a <video> from the loopback network fails as media-error, refused by the policy, before ffmpeg reads it", () => {
    const run = runs.get("video")!;
    expect(run.error?.code).toBe("media-error");
    expect(run.error?.message).toMatch(/refused by the network policy: a loopback address/);
    expect(run.leftovers).toEqual([]);
  });
});

describe("--allow-host", () => {
  it("allows the named hosts under --network public: the service's red is drawn", async () => {
    const cliRun = cli.get("allow-host")!;
    expect(cliRun.code, cliRun.stderr).toBe(0);
    expect(hits).toEqual(expect.arrayContaining(["/secret.png", "/css.png", "/frame.html", "/from-worker", "upgrade /socket"]));
    expect(await pixel(project.path("out", "allowed", "frame_000000.png"), 10, 10)).toEqual([255, 0, 0, 255]);
    expect(await pixel(project.path("out", "allowed", "frame_000000.png"), 10, 100)).toEqual([255, 0, 0, 255]);
  });
});
