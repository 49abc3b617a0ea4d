/**
 * compose render --docker end to end, except for Docker itself: a stand-in `docker` emulates a
 * working engine by running the container's command with this repository's CLI, its mounts
 * translated back to their host sources (see fake-docker.ts). That proves what this machine can
 * prove without an engine: the CLI probes the engine, builds the image only when it is missing
 * (from the repository root, tagged by version), hands `docker run` exactly the command the pure
 * builder makes, and that command is a valid render for the CLI inside: it finds the composition,
 * the variables file and the output where they are mounted; the inner render's progress, errors
 * and exit code reach the caller; Ctrl-C stops it. Isolation and the image's contents are not
 * tested here: they need a Docker engine.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerBuildArgs, imageTag } from "../../packages/cli/src/docker/image.js";
import { dockerRunArgs } from "../../packages/cli/src/docker/run-command.js";
import { leftoverProcesses, lines, startCli, type CliResult } from "../support/cli.js";
import { decodeFrame, hex, isColour } from "../support/media.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { createFakeDocker, type FakeDocker } from "./fake-docker.js";

const VARIABLES = [{ id: "paint", type: "color", label: "Paint", default: "#ff0000" }];
const html = (duration: number) =>
  compositionHtml({
    id: "boxed",
    duration,
    variables: VARIABLES,
    body: `<div id="box" style="position: absolute; left: 0; top: 0; width: 320px; height: 180px;"></div>`,
    after: `<script>
  const { paint = "#ff0000" } = __compose.getVariables();
  document.getElementById("box").style.background = paint;
</script>`,
  });

let project: TempProject;
let docker: FakeDocker;

beforeAll(async () => {
  project = await createProject({
    "index.html": html(0.25),
    "long.html": html(20),
    "vars/paint.json": JSON.stringify({ paint: "#00c000" }),
  });
  docker = await createFakeDocker("engine");
});
afterAll(async () => {
  await Promise.all([project?.remove(), docker?.remove()]);
});

function run(args: string[], image: "present" | "missing", env: Record<string, string> = {}) {
  return startCli(["render", ...args, "--docker"], {
    cwd: project.dir,
    env: { PATH: `${docker.dir}:${process.env.PATH}`, FAKE_DOCKER_IMAGE: image, ...env },
    timeoutMs: 60_000,
  });
}

function currentUser() {
  return { uid: process.getuid!(), gid: process.getgid!() };
}

describe("with the image present", () => {
  let result: CliResult;
  let calls: string[][];

  beforeAll(async () => {
    const before = (await docker.calls()).length;
    result = await run(["index.html", "--format", "png-sequence", "--fps", "24", "--variables-file", "vars/paint.json", "-o", "renders/frames"], "present", {
      COMPOSE_READY_TIMEOUT_MS: "45000",
    }).result;
    calls = (await docker.calls()).slice(before);
  }, 120_000);

  it("probes the engine, finds the image and runs the render, nothing else", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(calls.map((call) => call.slice(0, 2).join(" "))).toEqual(["version --format", "image inspect", "run --rm"]);
    expect(calls[1]).toEqual(["image", "inspect", "--format", "{{.Id}}", imageTag()]);
  });

  it("hands docker run exactly the command the builder makes", () => {
    expect(calls[2]).toEqual(
      dockerRunArgs({
        image: imageTag(),
        compositionFile: project.path("index.html"),
        output: project.path("renders", "frames"),
        variablesFile: project.path("vars", "paint.json"),
        cwd: project.dir,
        flags: { format: "png-sequence", fps: "24" },
        user: currentUser(),
        tty: false,
        // Settings the inner render honours too (the test helper sets NO_COLOR for every run).
        env: { COMPOSE_READY_TIMEOUT_MS: "45000", NO_COLOR: "1" },
      }),
    );
  });

  it("renders through the mounts: the variables file reached the inner render, the output is where the user asked", async () => {
    const frames = (await readdir(project.path("renders", "frames"))).sort();
    expect(frames).toEqual(["frame_000000.png", "frame_000001.png", "frame_000002.png", "frame_000003.png", "frame_000004.png", "frame_000005.png"]);
    const frame = await decodeFrame(project.path("renders", "frames", "frame_000003.png"));
    expect(isColour(frame, 160, 90, hex("#00c000"))).toBe(true);
  });

  it("shows the inner render's progress, with the output path the user knows", () => {
    const out = lines(result.stdout);
    expect(out[0]).toMatch(/^Rendering boxed at 24 fps/);
    expect(out.at(-1)).toMatch(/^Output: renders\/frames \(/);
  });
});

describe("with the image missing", () => {
  it("builds it from the repository root, tagged by version, then renders", async () => {
    const before = (await docker.calls()).length;
    const result = await run(["--output", project.path("built.mp4"), "--quality", "draft", "--quiet"], "missing").result;
    const calls = (await docker.calls()).slice(before);
    expect(result.code, result.stderr).toBe(0);
    expect(calls.map((call) => call[0])).toEqual(["version", "image", "build", "run"]);
    expect(calls[2]).toEqual(dockerBuildArgs(imageTag(), REPO_ROOT));
    expect(result.stderr).toContain(`docker: building the image ${imageTag()} from ${REPO_ROOT}`);
    // --quiet: stdout holds only the output path, the build's progress went to stderr.
    expect(result.stdout).toBe("built.mp4\n");
    expect(existsSync(project.path("built.mp4"))).toBe(true);
  }, 60_000);
});

describe("when the inner render fails or is cancelled", () => {
  it("passes on its error line and its exit code, and leaves no output", async () => {
    const result = await run(["--output", project.path("refused.mp4"), "--variables", '{"nope": 1}', "--strict-variables"], "present").result;
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^error: variables refused by --strict-variables, so the render stopped: undeclared: /)]);
    expect(existsSync(project.path("refused.mp4"))).toBe(false);
  }, 60_000);

  it("stops on Ctrl-C with the inner render's exit code 130, leaving no output and no processes", async () => {
    const cli = startCli(["render", "long.html", "--docker", "--output", project.path("cancelled.mp4"), "--workers", "1"], {
      cwd: project.dir,
      env: { PATH: `${docker.dir}:${process.env.PATH}`, FAKE_DOCKER_IMAGE: "present" },
      timeoutMs: 60_000,
      processGroup: true,
    });
    await cli.waitForStdout(/frames \(\d+%\)/);
    // What Ctrl-C at a terminal does: SIGINT to the CLI's process group (docker runs in its own).
    process.kill(-cli.pid, "SIGINT");
    const result = await cli.result;
    expect(result.code, result.stderr).toBe(130);
    expect(existsSync(project.path("cancelled.mp4"))).toBe(false);
    expect((await readdir(project.dir)).filter((name) => name.includes("partial"))).toEqual([]);
    expect(await leftoverProcesses(cli.tag)).toEqual([]);
  }, 60_000);
});
