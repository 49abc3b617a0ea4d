/**
 * The `compose` file runs by itself, as `npm run link`, npm's .bin and the container's
 * /usr/local/bin/compose start it: its first line starts Node with the young-generation size
 * that keeps a render's frames from piling up in the heap.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "bin", duration: 0.1 }) });
});
afterAll(() => project?.remove());

describe("the compose executable", () => {
  it("runs through its own first line", async () => {
    const { stdout } = await promisify(execFile)(CLI_BIN, ["--version"]);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("is a Node process started with --max-semi-space-size=2", async () => {
    const child = spawn(CLI_BIN, ["preview", project.dir, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          if (/http:\/\/127\.0\.0\.1:\d+\//.test(chunk.toString())) resolve();
        });
        child.on("exit", (code) => reject(new Error(`compose preview exited with ${code}`)));
      });
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
      expect(argv).toContain("--max-semi-space-size=2");
      expect(argv.some((arg) => arg.endsWith("/bin/compose.js"))).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
