/**
 * A program that stops reading compose's JSON lines (`compose render --json | head -3`) ends the
 * render as Ctrl-C does: exit 130, one line on stderr and no stack trace, no output or staging
 * left, no process left running. Before, the next write threw an unhandled EPIPE.
 */
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leftoverProcesses, startCli, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
let result: CliResult;
let leftovers: string[];

beforeAll(async () => {
  project = await createProject({
    "index.html": compositionHtml({ id: "long", duration: 20, backdrop: "#204080", body: `<p style="font:30px sans-serif;color:#fff">reader</p>` }),
  });
  const run = startCli(["render", project.path("index.html"), "--output", project.path("out", "long.mp4"), "--workers", "1", "--json"], { timeoutMs: 120_000 });
  await run.waitForStdout(/"type":"progress"/);
  // The reader goes away, as `head` does once it has its lines.
  run.child.stdout!.destroy();
  result = await run.result;
  leftovers = (await leftoverProcesses(run.tag)).map((process) => process.cmdline);
}, 150_000);

afterAll(() => project?.remove());

describe("compose render --json whose reader goes away", () => {
  it("stops as on Ctrl-C: exit 130 and one line, no stack trace", () => {
    expect(result.timedOut).toBe(false);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("leaves no output, no staging and no process", async () => {
    expect(await readdir(project.path("out")).catch(() => [])).toEqual([]);
    expect(leftovers).toEqual([]);
  });
});
