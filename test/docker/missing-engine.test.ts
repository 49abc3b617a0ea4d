/**
 * `compose render --docker` without a reachable Docker engine fails at once: one line on stderr
 * saying so and how to fix it, exit code 1, no output (not even its directory), no browser or
 * ffmpeg started (both are traps that record a start), no docker command beyond the probe.
 * `compose doctor` reports the same problem with the same fix (one probe serves both).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leftoverProcesses, lines, render, runCli, startCli, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createToolTraps, type ToolTraps } from "../support/tool-traps.js";
import { createFakeDocker, NO_DAEMON_MESSAGE, type FakeDocker } from "./fake-docker.js";

let project: TempProject;
let traps: ToolTraps;
let noDaemon: FakeDocker;
/** A PATH directory without any docker. */
let emptyDir: string;

beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "nodocker", duration: 0.5, background: "#204080" }) });
  traps = await createToolTraps();
  noDaemon = await createFakeDocker("no-daemon");
  emptyDir = await mkdtemp(join(tmpdir(), "compose-no-docker-"));
});
afterAll(async () => {
  await Promise.all([project.remove(), traps.remove(), noDaemon.remove(), rm(emptyDir, { recursive: true, force: true })]);
});

async function renderWithPath(pathDir: string, output: string): Promise<{ result: CliResult; leftovers: unknown[] }> {
  const run = startCli(["render", project.dir, "--docker", "--output", output, "--fps", "24"], {
    cwd: project.dir,
    env: { ...traps.env, PATH: pathDir },
    timeoutMs: 20_000,
  });
  const result = await run.result;
  return { result, leftovers: await leftoverProcesses(run.tag, 500) };
}

describe("compose render --docker with a docker client but no engine", () => {
  let result: CliResult;
  let leftovers: unknown[];
  const output = () => project.path("out", "video.mp4");

  beforeAll(async () => {
    ({ result, leftovers } = await renderWithPath(noDaemon.dir, output()));
  });

  it("prints one line naming the problem, docker's reason and the fix, and exits 1", () => {
    expect(result.code, result.stderr).toBe(1);
    expect(lines(result.stderr)).toEqual([
      `error: docker: no reachable Docker engine (${NO_DAEMON_MESSAGE}): start the Docker daemon (sudo systemctl start docker), or render without --docker`,
    ]);
    expect(result.stdout).toBe("");
  });

  it("fails at once, leaves no output and starts no browser, no ffmpeg and no container", async () => {
    expect(result.ms).toBeLessThan(10_000);
    expect(existsSync(output())).toBe(false);
    expect(existsSync(project.path("out"))).toBe(false);
    expect(await traps.started()).toEqual([]);
    expect(leftovers).toEqual([]);
    expect(await noDaemon.calls()).toEqual([["version", "--format", "{{json .}}"]]);
  });
});

describe("compose render --docker without any docker", () => {
  it("says docker is missing, how to get it, and exits 1 with no output", async () => {
    const output = project.path("none", "video.mp4");
    const { result, leftovers } = await renderWithPath(emptyDir, output);
    expect(result.code, result.stderr).toBe(1);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: docker: the docker command was not found on PATH: .*install.*, or render without --docker\n$/);
    expect(result.stdout).toBe("");
    expect(existsSync(project.path("none"))).toBe(false);
    expect(await traps.started()).toEqual([]);
    expect(leftovers).toEqual([]);
  });
});

describe("usage errors come first", () => {
  it("refuses --browser-gpu with --docker (exit 2) before looking for docker", async () => {
    const result = await render([project.dir, "--docker", "--browser-gpu"], { cwd: project.dir, env: { ...traps.env, PATH: emptyDir } });
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual(["error: --browser-gpu cannot be combined with --docker: container mode always renders without the host GPU"]);
  });

  it("still checks every flag (exit 2) before docker", async () => {
    const result = await render([project.dir, "--docker", "--fps", "25"], { cwd: project.dir, env: { ...traps.env, PATH: emptyDir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --fps /);
  });
});

describe("compose doctor with the same docker client", () => {
  it("reports the engine as not reachable, with docker's reason and the same fix", async () => {
    // No browser there and no ffmpeg on this PATH: those checks fail fast; only docker matters here.
    const env = { COMPOSE_BROWSER: join(emptyDir, "no-browser"), PATH: noDaemon.dir };
    const result = await runCli(["doctor", "--json"], { env, timeoutMs: 30_000 });
    const report = JSON.parse(result.stdout) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> };
    const docker = report.checks.find((check) => check.id === "docker");
    expect(docker).toMatchObject({ status: "warn", fix: "start the Docker daemon (sudo systemctl start docker)" });
    expect(docker?.detail).toBe(`CLI 28.2.2, engine not reachable (${NO_DAEMON_MESSAGE}): no container mode (--docker); local rendering does not need it`);
  });
});
