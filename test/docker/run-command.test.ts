/**
 * The container path by the exact command it builds: `docker run` for a render (mounts, the
 * read-only project, the calling user, the image tag, every flag passed on, paths mapped) and
 * `docker build` for the image, with the labels and tag it gets. Pure functions: no Docker engine
 * is needed (real-engine.test.ts runs them on one).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lockDigest, pinnedImageOf, repositoryRoot, type LocalImage } from "../../packages/cli/src/docker/image.js";
import { dockerBuildArgs, isPinnedBuild, unreachableSourcesHint } from "../../packages/cli/src/docker/image-build.js";
import { imageLabels, imageTagOf, parseVersionsFile, versionsOfLabels, type ImageVersions } from "../../packages/cli/src/docker/image-versions.js";
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

  it("mounts the project read-only and only the output's directory writable, at the output's own path", () => {
    const args = dockerRunArgs(plan({ compositionFile: "/srv/work/card.html", output: "/data/out/card.mov" }));
    const mounts = args.filter((arg) => arg.startsWith("--mount="));
    expect(mounts).toEqual(["--mount=type=bind,source=/srv/work,target=/compose/project,readonly", "--mount=type=bind,source=/data/out,target=/data/out"]);
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
      "--network=public",
      "--allow-host=cdn.example.com",
      "--allow-host=*.example.org",
      "--max-frames=900",
      "--max-width=1920",
      "--max-height=1080",
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

/** /compose/versions as the Dockerfile writes it in an image built from Debian's current archive. */
const CURRENT_VERSIONS = `version=${VERSION}
archive=current
base-image=compose-test/debian:bookworm
browser=chromium-headless-shell 156.0.8078.108-1~deb12u1
ffmpeg=ffmpeg 7:5.1.9-0+deb12u1
fonts=fonts-dejavu-core 2.37-6, fonts-liberation2 2.1.5-1, fonts-noto-color-emoji 2.042-0+deb12u1
node=v20.20.2
lock=sha256:0cd576ed793335ccb97816a4181be8073380947f4901dfb5bacfbfd02ecbed1c
debian-packages=sha256:29344cacb3b041645234b6037ba3cc7272af63aac8e6e4b252d44e50a864da43
`;

describe("the image's labels and tag", () => {
  const current = parseVersionsFile(CURRENT_VERSIONS)!;
  const pinned: ImageVersions = {
    ...current,
    archive: "snapshot 20261121T000000Z",
    "base-image": "debian:bookworm-20260918-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251",
    browser: "chromium-headless-shell 156.0.8078.79-1~deb12u1",
  };

  it("records every version the image lists, and reads them back", () => {
    expect(imageLabels(current, false)).toEqual({
      "compose.version": VERSION,
      "compose.archive": "current",
      "compose.base-image": "compose-test/debian:bookworm",
      "compose.browser": "chromium-headless-shell 156.0.8078.108-1~deb12u1",
      "compose.ffmpeg": "ffmpeg 7:5.1.9-0+deb12u1",
      "compose.fonts": "fonts-dejavu-core 2.37-6, fonts-liberation2 2.1.5-1, fonts-noto-color-emoji 2.042-0+deb12u1",
      "compose.node": "v20.20.2",
      "compose.lock": "sha256:0cd576ed793335ccb97816a4181be8073380947f4901dfb5bacfbfd02ecbed1c",
      "compose.debian-packages": "sha256:29344cacb3b041645234b6037ba3cc7272af63aac8e6e4b252d44e50a864da43",
      "compose.pinned": "false",
    });
    expect(versionsOfLabels(imageLabels(current, false))).toEqual(current);
    // An image without them (built by hand, or another image) has no versions to show.
    expect(versionsOfLabels({ "org.opencontainers.image.title": "compose-render" })).toBeUndefined();
    expect(versionsOfLabels(null)).toBeUndefined();
    expect(parseVersionsFile(CURRENT_VERSIONS.replace(/^node=.*\n/m, ""))).toBeUndefined();
  });

  it("tags an image by the digest of its labels: the same versions the same tag, any other version another", () => {
    const tag = imageTagOf(imageLabels(current, false));
    expect(tag).toMatch(/^compose-render:[0-9a-f]{16}$/);
    expect(imageTagOf(imageLabels({ ...current }, false))).toBe(tag);
    expect(imageTagOf(imageLabels(pinned, true))).not.toBe(tag);
    expect(imageTagOf(imageLabels({ ...current, "debian-packages": "sha256:0" }, false))).not.toBe(tag);
    // An image from the current archive never passes for the pinned one, even holding the same versions.
    expect(imageTagOf(imageLabels(pinned, false))).not.toBe(imageTagOf(imageLabels(pinned, true)));
  });

  it("renders by default in the pinned image of this version and lock file only", () => {
    const image = (versions: ImageVersions, isPinned: boolean, tag: string): LocalImage => ({ tag, versions, pinned: isPinned });
    const lock = lockDigest()!;
    const images = [
      image({ ...current, lock }, false, "compose-render:current"),
      image({ ...pinned, lock, version: "0.0.1" }, true, "compose-render:older"),
      image({ ...pinned, lock: "sha256:other" }, true, "compose-render:otherlock"),
      image({ ...pinned, lock }, true, "compose-render:pinned"),
    ];
    expect(pinnedImageOf(images)?.tag).toBe("compose-render:pinned");
    expect(pinnedImageOf(images.slice(0, 3))).toBeUndefined();
    expect(lock).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("docker build of the image", () => {
  const root = "/src/compose";

  it("builds from the repository root with its Dockerfile and its pins, on the host's network", () => {
    expect(dockerBuildArgs({ root, archive: "snapshot" }, "compose-render:build-1")).toEqual([
      "build",
      "--network=host",
      "--tag=compose-render:build-1",
      "--file=/src/compose/Dockerfile",
      "/src/compose",
    ]);
    expect(isPinnedBuild({ archive: "snapshot" })).toBe(true);
  });

  it("passes a base image, the current archive, mirrors and certificate authorities as build arguments and a secret", () => {
    const args = dockerBuildArgs(
      {
        root,
        baseImage: "compose-test/debian:bookworm",
        archive: "current",
        debianMirror: "http://mirror.example/debian-mirror",
        npmRegistry: "https://npm.example",
        caCertificates: "/etc/ssl/certs/ca-certificates.crt",
      },
      "compose-render:build-1",
    );
    expect(args).toEqual([
      "build",
      "--network=host",
      "--tag=compose-render:build-1",
      "--file=/src/compose/Dockerfile",
      "--build-arg=BASE_IMAGE=compose-test/debian:bookworm",
      "--build-arg=DEBIAN_SNAPSHOT=",
      "--build-arg=DEBIAN_MIRROR=http://mirror.example/debian-mirror",
      "--build-arg=NPM_REGISTRY=https://npm.example",
      "--secret=id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt",
      "/src/compose",
    ]);
    expect(dockerBuildArgs({ root, archive: "snapshot", debianMirror: "http://snap.example" }, "t")).toContain(
      "--build-arg=SNAPSHOT_MIRROR=http://snap.example",
    );
    expect(isPinnedBuild({ archive: "current" })).toBe(false);
    expect(isPinnedBuild({ archive: "snapshot", baseImage: "debian:bookworm" })).toBe(false);
  });

  it("says how to build from what answers after a build from Docker's registry or the snapshot failed", () => {
    expect(unreachableSourcesHint({ archive: "snapshot" })).toBe(
      "where Docker's registry or snapshot.debian.org does not answer, build from what does: compose docker build --base-image IMAGE --archive current",
    );
    expect(unreachableSourcesHint({ archive: "snapshot", baseImage: "debian-12-local" })).toBe(
      "where snapshot.debian.org does not answer, build from what does: compose docker build --base-image debian-12-local --archive current",
    );
    expect(unreachableSourcesHint({ archive: "current" })).toMatch(/^where Docker's registry does not answer, .* --base-image IMAGE --archive current$/);
    expect(unreachableSourcesHint({ archive: "current", baseImage: "debian-12-local" })).toBeUndefined();
  });

  it("finds the repository root from the CLI's own location", () => {
    expect(repositoryRoot()).toBe(REPO_ROOT);
  });
});
