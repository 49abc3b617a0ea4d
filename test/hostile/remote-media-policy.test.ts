/**
 * Media that ffmpeg reads itself from a URL are held to the network policy hop by hop: under
 * `public`, an allowed host's clip is read (picture and sound), and a redirect from it to the
 * loopback network is refused before ffmpeg reaches the address it points to.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedRender, type IsolatedRun } from "../support/api-run.js";
import { limited, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodeFrame, ffprobe, isColour } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const LIME = [0, 255, 0];

let service: Server;
let port: number;
const hits: string[] = [];
let project: TempProject;
const runs = new Map<string, IsolatedRun>();

const withVideo = (src: string) =>
  compositionHtml({
    id: "remote",
    duration: 0.2,
    body: `<video src="${src}" data-has-audio="true" data-start="0" data-duration="0.2" style="position:absolute;left:0;top:0;width:320px;height:180px"></video>`,
  });

beforeAll(async () => {
  let bytes = Buffer.alloc(0);
  service = createServer((request, response) => {
    hits.push(request.url ?? "");
    if (request.url === "/redirect.mp4") {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/leak.mp4` }).end();
      return;
    }
    response.writeHead(200, { "content-type": "video/mp4", "content-length": bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  port = (service.address() as AddressInfo).port;
  project = await createProject({
    "allowed/index.html": withVideo(`http://localhost:${port}/clip.mp4`),
    "redirected/index.html": withVideo(`http://localhost:${port}/redirect.mp4`),
  });
  const clip = project.path("clip.mp4");
  await promisify(execFile)("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "color=c=0x00ff00:s=64x36:r=30:d=0.4",
    "-f",
    "lavfi",
    "-i",
    "sine=f=440:d=0.4",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    clip,
  ]);
  bytes = await readFile(clip);
  // localhost is allowed by name; the loopback address it redirects to is not.
  const network = { mode: "public", allowHosts: ["localhost"], acceptRequestHosts: false };
  await limited(
    2,
    ["allowed", "redirected"].map((name) => async () => {
      runs.set(
        name,
        await isolatedRender(project.path("runs", name), {
          composition: project.path(name, "index.html"),
          output: "out.mp4",
          options: { workers: 1 },
          network,
        }),
      );
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await new Promise((resolve) => service?.close(resolve));
  await project?.remove();
});

describe("remote media under --network public", () => {
  it("an allowed host's clip is read through the policy: its picture is drawn and its sound mixed", async () => {
    const run = runs.get("allowed")!;
    expect(run.error, JSON.stringify(run.error)).toBeUndefined();
    const output = join(project.path("runs", "allowed", "out"), "out.mp4");
    expect(isColour(await decodeFrame(output, 3), 160, 90, LIME)).toBe(true);
    expect((await ffprobe(output)).streams.map((stream) => stream.codec_type).sort()).toEqual(["audio", "video"]);
  });

  it("a redirect to the loopback network fails the render as media-error, and nothing reached the address it named", () => {
    const run = runs.get("redirected")!;
    expect(run.error?.code).toBe("media-error");
    expect(run.error?.message).toContain(`http://localhost:${port}/redirect.mp4`);
    expect(hits).not.toContain("/leak.mp4");
    const refused = run.events.filter((event) => event.type === "warning" && event.code === "network-refused");
    expect(refused.map((event) => (event as { message: string }).message)).toEqual([
      expect.stringMatching(new RegExp(`^refused http://127\\.0\\.0\\.1:${port}/leak\\.mp4: a loopback address`)),
    ]);
    expect(run.leftovers).toEqual([]);
  });
});
