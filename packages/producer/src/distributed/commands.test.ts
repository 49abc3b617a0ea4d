/** Start-up of compose serve --queue and compose worker as processes: refusals are one line and an exit code. */
import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { CLI, cleanEnv, spawnServe, type Exit } from "../../test/support/serve.js";

function runWorker(args: string[]): Promise<Exit> {
  const child = spawn(process.execPath, [CLI, "worker", ...args], { cwd: tmpdir(), env: cleanEnv({}, "commands-test"), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function oneLine(exit: Exit, code: number, pattern: RegExp): void {
  expect(exit.code, exit.stderr).toBe(code);
  expect(exit.stdout).toBe("");
  expect(exit.stderr).toMatch(pattern);
  expect(exit.stderr.trimEnd().split("\n")).toHaveLength(1);
}

describe("compose serve --queue and compose worker at start", () => {
  it("refuse bad flags with exit code 2", async () => {
    const [noQueue, badQueue, chunksAlone, badChunks] = await Promise.all([
      runWorker([]),
      runWorker(["--queue", "127.0.0.1:6379"]),
      spawnServe(["--port", "0", "--chunk-size", "10"]).exited,
      spawnServe(["--port", "0", "--queue", "redis://127.0.0.1:6379", "--chunk-size", "-3"]).exited,
    ]);
    oneLine(noQueue, 2, /^error: --queue redis:\/\/HOST:PORT is required/);
    oneLine(badQueue, 2, /^error: --queue must be a Redis URL/);
    oneLine(chunksAlone, 2, /^error: --chunk-size needs --queue/);
    oneLine(badChunks, 2, /^error: --chunk-size must be an integer/);
  });

  it("stop with exit code 1 and one line when Redis cannot be reached", async () => {
    const port = await closedPort();
    const url = `redis://127.0.0.1:${port}`;
    const [server, worker] = await Promise.all([spawnServe(["--port", "0", "--queue", url]).exited, runWorker(["--queue", url])]);
    oneLine(server, 1, new RegExp(`^error: cannot reach the queue at redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
    oneLine(worker, 1, new RegExp(`^error: cannot reach the queue at redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});
