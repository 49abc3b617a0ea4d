/** `npm run chaos`, one request of each kind: the run itself checks every outcome and exits 1 on any problem. */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const HERE = dirname(fileURLToPath(import.meta.url));

describe("npm run chaos", () => {
  it("good, hanging, crashing and hostile requests at once: each ends as it should, the slots come back, nothing is left", async () => {
    // Waited for without blocking: a test worker held in a synchronous wait for minutes (as on a
    // busy machine) lets vitest's own messages to it time out.
    const run = await new Promise<{ code: number | string | null | undefined; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", "tsx", join(HERE, "..", "load", "run-chaos.ts")],
        { env: { ...process.env, CHAOS_ROUNDS: "1" }, encoding: "utf8", timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
      );
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^chaos: ok$/m);
  }, 300_000);
});
