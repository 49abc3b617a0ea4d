/**
 * compose render --docker end to end, except for Docker itself: a stand-in `docker` emulates a
 * working engine by running the container's command with this repository's CLI, its mounts
 * translated back to their host sources (see fake-docker.ts). That proves what this machine can
 * prove without an engine: the CLI probes the engine, builds the image only when it is missing
 * (from the repository root, tagged by version), hands `docker run` exactly the command the pure
 * builder makes, and that command is a valid render for the CLI inside: it finds the composition,
 * the variables file and the output where they are mounted; the inner render's progress, errors
 * and exit code reach the caller; Ctrl-C stops it. Isolation and the image's contents are tested
 * on a real engine (real-engine.test.ts).
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDigest } from "../../packages/cli/src/docker/image.js";
import { dockerBuildArgs, HOST_CA_CERTIFICATES } from "../../packages/cli/src/docker/image-build.js";
import { imageLabels, imageTagOf, parseVersionsFile } from "../../packages/cli/src/docker/image-versions.js";
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

/** What the Dockerfile lists in /compose/versions of an image built from its pins, for this version and lock file. */
const VERSIONS_FILE = `version=0.1.0
archive=snapshot 20261121T000000Z
base-image=debian:bookworm-20260918-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251
browser=chromium-headless-shell 156.0.8078.79-1~deb12u1
ffmpeg=ffmpeg 7:5.1.9-0+deb12u1
fonts=fonts-dejavu-core 2.37-6, fonts-liberation2 2.1.5-1, fonts-noto-color-emoji 2.042-0+deb12u1
node=v20.20.2
lock=${lockDigest()}
debian-packages=sha256:29344cacb3b041645234b6037ba3cc7272af63aac8e6e4b252d44e50a864da43
`;
const LABELS = imageLabels(parseVersionsFile(VERSIONS_FILE)!, true);
const TAG = imageTagOf(LABELS);

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
    env: { PATH: `${docker.dir}:${process.env.PATH}`, ...fakeImage(image), ...env },
    timeoutMs: 60_000,
  });
}

function fakeImage(image: "present" | "missing") {
  return { FAKE_DOCKER_IMAGE: image, FAKE_DOCKER_TAG: TAG, FAKE_DOCKER_LABELS: JSON.stringify(LABELS), FAKE_DOCKER_VERSIONS: VERSIONS_FILE };
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

  it("probes the engine, finds the pinned image by its labels and runs the render, nothing else", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(calls.map((call) => call.slice(0, 2).join(" "))).toEqual(["version --format", "image ls", "image inspect", "run --rm"]);
    expect(calls[1]).toEqual(["image", "ls", "--filter", "label=compose.version", "--format", "{{.Repository}}:{{.Tag}}", "compose-render"]);
    expect(calls[2]).toEqual(["image", "inspect", "--format", "{{json .Config.Labels}}", TAG]);
  });

  it("hands docker run exactly the command the builder makes", () => {
    expect(calls[3]).toEqual(
      dockerRunArgs({
        image: TAG,
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
  it("builds it from the repository root with the pins, labels it with its versions, tags it by their digest, then renders", async () => {
    const before = (await docker.calls()).length;
    const cli = run(["--output", project.path("built.mp4"), "--quality", "draft", "--quiet"], "missing");
    const result = await cli.result;
    const calls = (await docker.calls()).slice(before);
    expect(result.code, result.stderr).toBe(0);
    expect(calls.map((call) => call.slice(0, 2).join(" "))).toEqual([
      "version --format",
      "image ls",
      "build --network=host",
      "run --rm",
      "build --quiet",
      "image rm",
      "run --rm",
    ]);
    const unlabelled = `compose-render:build-${cli.pid}`;
    expect(calls[2]).toEqual(
      dockerBuildArgs(
        { root: REPO_ROOT, archive: "snapshot", caCertificates: existsSync(HOST_CA_CERTIFICATES) ? HOST_CA_CERTIFICATES : undefined },
        unlabelled,
      ),
    );
    expect(calls[3]).toEqual(["run", "--rm", "--network=none", "--entrypoint=cat", unlabelled, "/compose/versions"]);
    expect(calls[4]).toEqual(["build", "--quiet", ...Object.entries(LABELS).map(([name, value]) => `--label=${name}=${value}`), `--tag=${TAG}`, "-"]);
    expect(calls[5]).toEqual(["image", "rm", unlabelled]);
    expect(calls[6]).toContain(TAG);
    expect(result.stderr).toContain(`docker: building the image with the pinned versions from ${REPO_ROOT}`);
    expect(result.stderr).toContain(`docker: built ${TAG}: chromium-headless-shell 156.0.8078.79-1~deb12u1, ffmpeg 7:5.1.9-0+deb12u1, Node.js 20.20.2`);
    // --quiet: stdout holds only the output path, the build's progress went to stderr.
    expect(result.stdout).toBe("built.mp4\n");
    expect(existsSync(project.path("built.mp4"))).toBe(true);
  }, 60_000);
});

describe("with the image missing and its sources not answering", () => {
  it("says in one line how to build from what answers, and writes nothing", async () => {
    const output = project.path("unbuilt", "video.mp4");
    const result = await run(["--output", output], "missing", { FAKE_DOCKER_BUILD: "unreachable" }).result;
    expect(result.code).toBe(1);
    expect(lines(result.stderr).at(-1)).toBe(
      "error: docker: building the image with the pinned versions failed: docker build exited with code 1; its output above says why; where Docker's registry or snapshot.debian.org does not answer, build from what does: compose docker build --base-image IMAGE --archive current, then render with --image and the tag it prints",
    );
    expect(result.stdout).toBe("");
    expect(existsSync(project.path("unbuilt"))).toBe(false);
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
      env: { PATH: `${docker.dir}:${process.env.PATH}`, ...fakeImage("present") },
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
