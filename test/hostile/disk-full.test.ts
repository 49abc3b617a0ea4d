/**
 * A full disk is named as the cause, with the directory whose disk is full, by the CLI and by the
 * server (code `disk-full`, never `internal-error`). The disk is a real 64 KiB tmpfs, so the
 * ENOSPC is the kernel's; mounting one needs root, without which the test is skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../packages/producer/test/support/http.js";
import { startServer, type TestServer } from "../../packages/producer/test/support/serve.js";
import { lines, render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/** Noise in every frame: far more than 64 KiB whatever the format. */
const NOISE = compositionHtml({
  id: "noise",
  duration: 0.5,
  body: `<canvas id="c" width="320" height="180"></canvas>`,
  after: `<script>
    const context = document.getElementById("c").getContext("2d");
    __compose.onSeek(() => {
      const image = context.createImageData(320, 180);
      for (let i = 0; i < image.data.length; i++) image.data[i] = Math.random() * 256;
      context.putImageData(image, 0, 0);
    });
  </script>`,
});

function mountSmallDisk(dir: string, options = "size=64k"): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let project: TempProject;
let server: TestServer;
let readOnlyServer: TestServer;
const mounted: string[] = [];

beforeAll(async () => {
  project = await createProject({ "index.html": NOISE });
  await mkdir(project.path("full"));
  if (mountSmallDisk(project.path("full"))) mounted.push(project.path("full"));
  server = await startServer([], {}, { "noise/index.html": NOISE });
  if (mountSmallDisk(server.outputsDir)) mounted.push(server.outputsDir);
  readOnlyServer = await startServer([], {}, { "noise/index.html": NOISE });
  if (mountSmallDisk(readOnlyServer.outputsDir, "ro,size=64k")) mounted.push(readOnlyServer.outputsDir);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  for (const dir of mounted) execFileSync("umount", [dir]);
  await server?.close();
  await readOnlyServer?.close();
  await project?.remove();
});

describe.skipIf(process.getuid?.() !== 0)("a full disk", () => {
  it.each([["mp4", "out.mp4"], ["png-sequence", "frames"]])("%s: the CLI names the full disk's directory and leaves nothing there", async (format, name) => {
    expect(mounted).toContain(project.path("full"));
    const result = await render([project.dir, "-o", project.path("full", name), "--format", format, "--workers", "1", "--quality", "draft"]);
    expect(result.code, result.stderr).toBe(1);
    expect(lines(result.stderr).filter((line) => line.startsWith("error:"))).toEqual([
      `error: cannot write in ${project.path("full")}: no space is left on its disk (No space left on device); free some space or write the output elsewhere`,
    ]);
    expect(await readdir(project.path("full"))).toEqual([]);
  });

  it("the server fails the request as disk-full, without its own paths", async () => {
    expect(mounted).toContain(server.outputsDir);
    const client = await openStream(server.url, { composition: "noise", quality: "draft", workers: 1 });
    const last = (await client.ended).at(-1);
    expect(last?.event).toBe("failed");
    expect(last?.data.code).toBe("disk-full");
    expect(last?.data.message).toBe("cannot write in the outputs directory: no space is left on its disk (No space left on device); free some space or write the output elsewhere");
  });

  it("the server's invalid-output names the request's output URL, never its own paths", async () => {
    expect(mounted).toContain(readOnlyServer.outputsDir);
    const client = await openStream(readOnlyServer.url, { composition: "noise", quality: "draft", workers: 1 });
    const last = (await client.ended).at(-1);
    expect(last?.data.code).toBe("invalid-output");
    const id = last?.data.requestId as string;
    expect(last?.data.message).toBe(`the output /render/${id}/output cannot be written: the outputs directory refuses new files (EROFS)`);
  });
}, RENDER_HOOK_TIMEOUT_MS);
