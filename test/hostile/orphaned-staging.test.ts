/**
 * Staging a killed process left (`.<name>.partial-<pid>-…`) does not stay for good: compose serve
 * removes it from --outputs when it starts, and the next render in a directory removes it whatever
 * output it was for. Staging of a live process, or of another machine, stays.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir } from "node:fs/promises";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputEntries, startServer } from "../../packages/producer/test/support/serve.js";
import { render } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const MARK = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);
/** The id of a process that has exited. */
const deadPid = spawnSync("true").pid!;

const orphan = `.3f2c.mp4.partial-${deadPid}-${MARK}AbC123`;
const live = `.9a1b.mp4.partial-${process.pid}-${MARK}XyZ789`;
const elsewhere = `.77aa.mp4.partial-${deadPid}-zzzzzzQwE456`;

let project: TempProject;

beforeAll(async () => {
  project = await createProject({ "comp/index.html": compositionHtml({ id: "orphans", duration: 0.1 }) });
});

afterAll(() => project?.remove());

async function leave(dir: string): Promise<void> {
  for (const name of [orphan, live, elsewhere]) await mkdir(`${dir}/${name}`, { recursive: true });
}

describe("orphaned staging", () => {
  it("is removed from --outputs when compose serve starts", async () => {
    const server = await startServer();
    try {
      await server.stop();
      await leave(server.outputsDir);
      const again = await startServer(["--outputs", server.outputsDir]);
      expect((await outputEntries(server.outputsDir)).sort()).toEqual([elsewhere, live].sort());
      await again.close();
    } finally {
      await server.close();
    }
  });

  it("is removed by the next render in that directory, whatever output it was for", async () => {
    await leave(project.path("out"));
    const result = await render([project.path("comp"), "-o", project.path("out", "video.mp4"), "--quality", "draft", "--workers", "1"]);
    expect(result.code, result.stderr).toBe(0);
    expect((await readdir(project.path("out"))).sort()).toEqual([elsewhere, live, "video.mp4"].sort());
  });
});
