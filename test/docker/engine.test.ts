/**
 * The one engine probe behind `compose render --docker` and `compose doctor`, against stand-in
 * docker clients: one that reaches an engine, one without a daemon, one refused by the socket,
 * none at all, one that hangs.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEngineProblem, engineErrorLine, probeDockerEngine } from "../../packages/cli/src/docker/engine.js";
import { createFakeDocker, NO_DAEMON_MESSAGE, type FakeDocker } from "./fake-docker.js";

let noDaemon: FakeDocker;
let denied: FakeDocker;
let engine: FakeDocker;
let dir: string;

beforeAll(async () => {
  [noDaemon, denied, engine] = await Promise.all([createFakeDocker("no-daemon"), createFakeDocker("permission-denied"), createFakeDocker("engine")]);
  dir = await mkdtemp(join(tmpdir(), "compose-docker-engine-"));
});
afterAll(async () => {
  await Promise.all([noDaemon.remove(), denied.remove(), engine.remove(), rm(dir, { recursive: true, force: true })]);
});

describe("probeDockerEngine", () => {
  it("reports a reachable engine with both versions, in one call", async () => {
    const status = await probeDockerEngine({ program: join(engine.dir, "docker") });
    expect(status).toEqual({ state: "ready", clientVersion: "28.2.2", engineVersion: "28.2.2" });
    expect(await engine.calls()).toEqual([["version", "--format", "{{json .}}"]]);
  });

  it("reports a client without a daemon as unreachable, with docker's own reason", async () => {
    const status = await probeDockerEngine({ program: join(noDaemon.dir, "docker") });
    expect(status).toEqual({ state: "unreachable", clientVersion: "28.2.2", reason: NO_DAEMON_MESSAGE, permissionDenied: false });
    expect(engineErrorLine(status as Exclude<typeof status, { state: "ready" }>, "apt")).toBe(
      `docker: no reachable Docker engine (${NO_DAEMON_MESSAGE}): start the Docker daemon (sudo systemctl start docker), or render without --docker`,
    );
  });

  it("tells a user refused by the socket how to get access", async () => {
    const status = await probeDockerEngine({ program: join(denied.dir, "docker") });
    expect(status).toMatchObject({ state: "unreachable", permissionDenied: true });
    expect(describeEngineProblem(status as Exclude<typeof status, { state: "ready" }>, "apt").fix).toMatch(/usermod -aG docker/);
  });

  it("reports a missing client", async () => {
    const status = await probeDockerEngine({ program: join(dir, "no-such-docker") });
    expect(status).toEqual({ state: "no-client", startError: "ENOENT" });
    expect(engineErrorLine(status as Exclude<typeof status, { state: "ready" }>, "apt")).toMatch(
      /^docker: the docker command was not found on PATH: sudo apt-get install docker\.io .*, or render without --docker$/,
    );
  });

  it("gives up on an engine that does not answer", async () => {
    const hanging = join(dir, "hanging-docker");
    await writeFile(hanging, "#!/bin/sh\nexec sleep 30\n");
    await chmod(hanging, 0o755);
    const started = Date.now();
    const status = await probeDockerEngine({ program: hanging, timeoutMs: 1000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(status).toMatchObject({ state: "unreachable", reason: "no answer within 1 s" });
  });
});
