/**
 * The container path by the exact command it builds: `docker run` for a render (mounts, the
 * read-only project, the calling user, the image tag, every flag passed on, paths mapped) and
 * `docker build` for the image. Pure functions: no Docker engine is needed (this machine has none).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dockerBuildArgs, imageTag, repositoryRoot } from "../../packages/cli/src/docker/image.js";
import { containerPath, dockerRunArgs, passedFlags, type ContainerRender } from "../../packages/cli/src/docker/run-command.js";
import { UsageError } from "../../packages/cli/src/usage-error.js";
import { REPO_ROOT } from "../support/project.js";

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as { version: string }).version;

function plan(overrides: Partial<ContainerRender> = {}): ContainerRender {
  return {
    image: `compose-render:${VERSION}`,
    compositionFile: "/home/ada/promo/index.html",
    output: "/home/ada/promo/renders/promo.mp4",
    cwd: "/home/ada/promo",
    flags: {},
    user: { uid: 1000, gid: 1000 },
    tty: false,
    platform: "linux",
    ...overrides,
  };
}

/** The arguments of the compose command inside the container (after the image). */
function inner(args: string[]): string[] {
  return args.slice(args.indexOf(`compose-render:${VERSION}`) + 1);
}

describe("docker run for compose render --docker", () => {
  it("is exactly this command for a plain render", () => {
    expect(dockerRunArgs(plan())).toEqual([
      "run",
      "--rm",
      "--init",
      "--user=1000:1000",
      "--shm-size=1g",
      "--mount=type=bind,source=/home/ada/promo,target=/compose/project,readonly",
      "--mount=type=bind,source=/home/ada/promo/renders,target=/home/ada/promo/renders",
      "--workdir=/home/ada/promo",
      `compose-render:${VERSION}`,
      "render",
      "/compose/project/index.html",
      "--output=/home/ada/promo/renders/promo.mp4",
      "--no-browser-gpu",
    ]);
  });

  it("tags the image by the project's version", () => {
    expect(imageTag()).toBe(`compose-render:${VERSION}`);
    expect(imageTag("2.3.4")).toBe("compose-render:2.3.4");
  });

  it("mounts the project read-only and only the output's directory writable, at the output's own path", () => {
    const args = dockerRunArgs(plan({ compositionFile: "/srv/work/card.html", output: "/data/out/card.mov" }));
    const mounts = args.filter((arg) => arg.startsWith("--mount="));
    expect(mounts).toEqual([
      "--mount=type=bind,source=/srv/work,target=/compose/project,readonly",
      "--mount=type=bind,source=/data/out,target=/data/out",
    ]);
    expect(inner(args).slice(0, 3)).toEqual(["render", "/compose/project/card.html", "--output=/data/out/card.mov"]);
  });

  it("maps a png-sequence directory the same way: its parent is mounted, the staging directory goes beside it", () => {
    const args = dockerRunArgs(plan({ output: "/tmp/frames/run-1", flags: { format: "png-sequence" } }));
    expect(args).toContain("--mount=type=bind,source=/tmp/frames,target=/tmp/frames");
    expect(inner(args)).toContain("--output=/tmp/frames/run-1");
    expect(inner(args)).toContain("--format=png-sequence");
  });

  it("mounts --variables-file read-only and points the inner render at it", () => {
    const args = dockerRunArgs(plan({ variablesFile: "/home/ada/vars/spring.json", flags: { variablesFile: "../vars/spring.json" } }));
    expect(args).toContain("--mount=type=bind,source=/home/ada/vars/spring.json,target=/compose/variables/spring.json,readonly");
    expect(inner(args)).toContain("--variables-file=/compose/variables/spring.json");
    expect(inner(args)).not.toContain("--variables-file=../vars/spring.json");
  });

  it("runs as the calling user, or as the image's user where the platform has no uid", () => {
    expect(dockerRunArgs(plan({ user: { uid: 501, gid: 20 } }))).toContain("--user=501:20");
    expect(dockerRunArgs(plan({ user: undefined })).some((arg) => arg.startsWith("--user"))).toBe(false);
  });

  it("gives the container a terminal only when the caller has one", () => {
    expect(dockerRunArgs(plan({ tty: true }))).toContain("--tty");
    expect(dockerRunArgs(plan({ tty: false }))).not.toContain("--tty");
  });

  it("passes every other render flag on as typed, turns the browser GPU off, and never passes --docker", () => {
    const flags = {
      format: "webm",
      fps: "60",
      quality: "high",
      crf: "20",
      videoBitrate: "5M",
      workers: "3",
      maxConcurrentRenders: "2",
      variables: '{"title":"--not a flag","n":-1}',
      gpu: true,
      hdr: true,
      sdr: true,
      strictVariables: true,
      allowMissingAssets: true,
      quiet: true,
      docker: true,
      browserGpu: false,
      output: "relative/out.webm",
    };
    const args = inner(dockerRunArgs(plan({ flags, output: "/home/ada/promo/relative/out.webm" })));
    expect(args).toEqual([
      "render",
      "/compose/project/index.html",
      "--output=/home/ada/promo/relative/out.webm",
      "--no-browser-gpu",
      "--format=webm",
      "--fps=60",
      "--quality=high",
      "--crf=20",
      "--video-bitrate=5M",
      "--workers=3",
      "--gpu",
      "--hdr",
      "--sdr",
      '--variables={"title":"--not a flag","n":-1}',
      "--strict-variables",
      "--allow-missing-assets",
      "--quiet",
      "--max-concurrent-renders=2",
    ]);
    expect(args.join(" ")).not.toMatch(/--docker|--browser-gpu/);
    expect(passedFlags({ workers: "auto" })).toEqual(["--workers=auto"]);
    expect(passedFlags({})).toEqual([]);
  });

  it("passes the network policy and the limits on", () => {
    expect(passedFlags({ network: "public", allowHost: ["cdn.example.com", "*.example.org"], maxFrames: "900", maxWidth: "1920", maxHeight: "1080" })).toEqual([
      "--network=public", "--allow-host=cdn.example.com", "--allow-host=*.example.org", "--max-frames=900", "--max-width=1920", "--max-height=1080",
    ]);
  });

  it("passes environment settings as --env", () => {
    const args = dockerRunArgs(plan({ env: { COMPOSE_READY_TIMEOUT_MS: "60000" } }));
    expect(args).toContain("--env=COMPOSE_READY_TIMEOUT_MS=60000");
    expect(args.indexOf("--env=COMPOSE_READY_TIMEOUT_MS=60000")).toBeLessThan(args.indexOf(`compose-render:${VERSION}`));
  });

  it("keeps the output writable when it lies inside the read-only project", () => {
    const args = dockerRunArgs(plan({ output: "/home/ada/promo/out.mp4" }));
    expect(args).toContain("--mount=type=bind,source=/home/ada/promo,target=/compose/project,readonly");
    expect(args).toContain("--mount=type=bind,source=/home/ada/promo,target=/home/ada/promo");
  });

  it("quotes mount fields holding a comma or a quote, as docker's CSV syntax needs", () => {
    const args = dockerRunArgs(plan({ compositionFile: '/home/ada/a,b "c"/index.html', output: "/out,1/x.mp4" }));
    expect(args).toContain('--mount=type=bind,"source=/home/ada/a,b ""c""",target=/compose/project,readonly');
    expect(args).toContain('--mount=type=bind,"source=/out,1","target=/out,1"');
  });

  it("maps Windows paths to /<drive>/...", () => {
    expect(containerPath("C:\\Users\\ada\\promo", "win32")).toBe("/c/Users/ada/promo");
    expect(containerPath("D:\\", "win32")).toBe("/d");
    const args = dockerRunArgs(
      plan({
        compositionFile: "C:\\Users\\ada\\promo\\index.html",
        output: "C:\\Users\\ada\\promo\\renders\\promo.mp4",
        cwd: "C:\\Users\\ada\\promo",
        user: undefined,
        platform: "win32",
      }),
    );
    expect(args).toContain("--mount=type=bind,source=C:\\Users\\ada\\promo,target=/compose/project,readonly");
    expect(args).toContain("--mount=type=bind,source=C:\\Users\\ada\\promo\\renders,target=/c/Users/ada/promo/renders");
    expect(args).toContain("--workdir=/c/Users/ada/promo");
    expect(inner(args)).toContain("--output=/c/Users/ada/promo/renders/promo.mp4");
  });

  it("refuses, as a usage error, an output directory whose mount would hide the container's own directories", () => {
    for (const output of ["/usr/local/out.mp4", "/x.mp4", "/compose/out.mp4", "/etc/out.mp4", "/var/cache/out.mp4"]) {
      expect(() => dockerRunArgs(plan({ output })), output).toThrow(UsageError);
    }
    expect(() => dockerRunArgs(plan({ output: "/usr/local/out.mp4" }))).toThrow(/--output \/usr\/local\/out\.mp4: .*hide the container's \/usr/);
    // Beside them is fine: /var/folders is where macOS keeps temporary files.
    expect(() => dockerRunArgs(plan({ output: "/var/folders/xy/T/out.mp4" }))).not.toThrow();
    expect(() => dockerRunArgs(plan({ output: "/composer/out.mp4" }))).not.toThrow();
  });
});

describe("docker build of the image", () => {
  it("builds from the repository root with its Dockerfile, tagged by version", () => {
    expect(dockerBuildArgs(`compose-render:${VERSION}`, "/src/compose")).toEqual([
      "build",
      `--tag=compose-render:${VERSION}`,
      "--file=/src/compose/Dockerfile",
      "/src/compose",
    ]);
  });

  it("finds the repository root from the CLI's own location", () => {
    expect(repositoryRoot()).toBe(REPO_ROOT);
  });
});
