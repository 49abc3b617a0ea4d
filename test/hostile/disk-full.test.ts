/**
 * A full disk is named as the cause, with the directory whose disk is full, by the CLI and by the
 * server (code `disk-full`, never `internal-error`), and an output that could not be written whole
 * is never called done, whichever write the disk filled on (ffmpeg exits 0 when only its trailer
 * could not be written). The disks are real tmpfs mounts, so the ENOSPC is the kernel's; mounting
 * one needs root, without which the test is skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream, request } from "../../packages/producer/test/support/http.js";
import { startServer, type TestServer } from "../../packages/producer/test/support/serve.js";
import { lines, render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { countFrames } from "../support/media.js";
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

/** The frames NOISE renders: 0.5 s at 30 fps. */
const NOISE_FRAMES = 15;

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
let nearlyFullServer: TestServer;
const mounted: string[] = [];
/** A tmpfs's size is whole pages. */
const PAGE_KIB = 4;
/** Pages an unhindered draft render of NOISE to mp4 takes: the disks below are sized around it. */
let outputPages = 0;

/** The draft render every fill level makes, into `output`. */
const renderNoise = (output: string) => render([project.dir, "-o", output, "--workers", "1", "--quality", "draft"]);

beforeAll(async () => {
  project = await createProject({ "index.html": NOISE });
  await mkdir(project.path("full"));
  if (mountSmallDisk(project.path("full"))) mounted.push(project.path("full"));
  server = await startServer([], {}, { "noise/index.html": NOISE });
  if (mountSmallDisk(server.outputsDir)) mounted.push(server.outputsDir);
  readOnlyServer = await startServer([], {}, { "noise/index.html": NOISE });
  if (mountSmallDisk(readOnlyServer.outputsDir, "ro,size=64k")) mounted.push(readOnlyServer.outputsDir);
  const whole = await renderNoise(project.path("whole.mp4"));
  if (whole.code !== 0) throw new Error(`the unhindered render failed: ${whole.stderr}`);
  outputPages = Math.ceil((await stat(project.path("whole.mp4"))).size / 1024 / PAGE_KIB);
  nearlyFullServer = await startServer([], {}, { "noise/index.html": NOISE });
  if (mountSmallDisk(nearlyFullServer.outputsDir, `size=${(outputPages - 1) * PAGE_KIB}k`)) mounted.push(nearlyFullServer.outputsDir);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  for (const dir of mounted) {
    try {
      execFileSync("umount", [dir], { stdio: "ignore" });
    } catch {
      // Still in use (a render a failed test left writing there): detached now, freed once its files close.
      execFileSync("umount", ["--lazy", dir]);
    }
  }
  await server?.close();
  await readOnlyServer?.close();
  await nearlyFullServer?.close();
  await project?.remove();
});

describe.skipIf(process.getuid?.() !== 0)(
  "a full disk",
  () => {
    it.each([
      ["mp4", "out.mp4"],
      ["png-sequence", "frames"],
    ])("%s: the CLI names the full disk's directory and leaves nothing there", async (format, name) => {
      expect(mounted).toContain(project.path("full"));
      const result = await render([project.dir, "-o", project.path("full", name), "--format", format, "--workers", "1", "--quality", "draft"]);
      expect(result.code, result.stderr).toBe(1);
      expect(lines(result.stderr).filter((line) => line.startsWith("error:"))).toEqual([
        `error: cannot write in ${project.path("full")}: no space is left on its disk (No space left on device); free some space or write the output elsewhere`,
      ]);
      expect(await readdir(project.path("full"))).toEqual([]);
    });

    // From a disk with room for all but the last page (where only ffmpeg's trailer fails) down to
    // one with room for a fraction of it, and disks with just enough room and more.
    it.each([-32, -8, -2, -1, 0, 4])(
      "with the output's size %d pages free, the CLI either writes a whole file or fails as disk-full leaving nothing",
      async (spare) => {
        const dir = project.path(`level${spare}`);
        await mkdir(dir);
        // The staging directory's entry takes no page of a tmpfs: the size is the room for the file.
        if (!mountSmallDisk(dir, `size=${(outputPages + spare) * PAGE_KIB}k`)) throw new Error("could not mount a tmpfs");
        mounted.push(dir);
        const result = await renderNoise(join(dir, "out.mp4"));
        if (result.code === 0) {
          expect(await countFrames(join(dir, "out.mp4"))).toBe(NOISE_FRAMES);
        } else {
          expect(result.code, result.stderr).toBe(1);
          expect(lines(result.stderr).filter((line) => line.startsWith("error:"))).toEqual([
            expect.stringMatching(new RegExp(`^error: cannot write (in )?${dir}.*no space is left on its disk`)),
          ]);
          expect(await readdir(dir)).toEqual([]);
        }
        if (spare > 0) expect(result.code, result.stderr).toBe(0);
        if (spare < 0) expect(result.code, "a file larger than its disk was called done").toBe(1);
      },
    );

    it("the server never completes a request whose output could not be written whole", async () => {
      expect(mounted).toContain(nearlyFullServer.outputsDir);
      const client = await openStream(nearlyFullServer.url, { composition: "noise", quality: "draft", workers: 1 });
      const last = (await client.ended).at(-1);
      expect(last?.event).toBe("failed");
      expect(last?.data.code).toBe("disk-full");
      const id = last?.data.requestId as string;
      expect((await request(`${nearlyFullServer.url}/render/${id}/output`)).status).toBeGreaterThanOrEqual(400);
      expect(await readdir(nearlyFullServer.outputsDir)).toEqual([]);
    });

    it("the server fails the request as disk-full, without its own paths", async () => {
      expect(mounted).toContain(server.outputsDir);
      const client = await openStream(server.url, { composition: "noise", quality: "draft", workers: 1 });
      const last = (await client.ended).at(-1);
      expect(last?.event).toBe("failed");
      expect(last?.data.code).toBe("disk-full");
      expect(last?.data.message).toBe(
        "cannot write in the outputs directory: no space is left on its disk (No space left on device); free some space or write the output elsewhere",
      );
    });

    it("the server's invalid-output names the request's output URL, never its own paths", async () => {
      expect(mounted).toContain(readOnlyServer.outputsDir);
      const client = await openStream(readOnlyServer.url, { composition: "noise", quality: "draft", workers: 1 });
      const last = (await client.ended).at(-1);
      expect(last?.data.code).toBe("invalid-output");
      const id = last?.data.requestId as string;
      expect(last?.data.message).toBe(`the output /render/${id}/output cannot be written: the outputs directory refuses new files (EROFS)`);
    });
  },
  RENDER_HOOK_TIMEOUT_MS,
);
