import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImageVersions } from "../docker/image-versions.js";
import { checkCores, checkEncoders, checkFfmpeg, checkMemory, checkNode, describeImages, parseEncoderNames, type DoctorContext } from "./checks.js";
import { detectPackageManager, installCommand } from "./install-command.js";
import { formatDoctorText, summarize } from "./report.js";

const GiB = 1024 ** 3;
let dir: string;

function context(env: NodeJS.ProcessEnv = {}): DoctorContext {
  return { env: { PATH: process.env.PATH, ...env }, packageManager: "apt", tempDir: dir, workDir: dir, browserTimeoutMs: 10_000 };
}

/** A stand-in ffmpeg that lists the given encoders. */
async function fakeFfmpeg(encoders: string[]): Promise<string> {
  const file = join(dir, `ffmpeg-${encoders.length}`);
  const list = encoders.map((name) => ` V....D ${name.padEnd(20)} ${name} encoder`).join("\n");
  await writeFile(file, `#!/bin/sh\ncat <<'LIST'\nEncoders:\n V..... = Video\n ------\n${list}\nLIST\n`);
  await chmod(file, 0o755);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "compose-doctor-unit-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("checkNode", () => {
  it("passes Node.js 20 and later", () => {
    expect(checkNode("20.0.0").status).toBe("pass");
    expect(checkNode("22.3.1").status).toBe("pass");
  });
  it("fails older versions with where to get a newer one", () => {
    const result = checkNode("18.19.1", "apt");
    expect(result.status).toBe("fail");
    expect(result.detail).toContain("20 or later");
    expect(result.fix).toContain("nodejs.org");
  });
});

describe("ffmpeg and its encoders", () => {
  it("fails a COMPOSE_FFMPEG that does not exist, and says what to change", async () => {
    const { result } = await checkFfmpeg(context({ COMPOSE_FFMPEG: join(dir, "nope") }));
    expect(result.status).toBe("fail");
    expect(result.detail).toContain("COMPOSE_FFMPEG=");
    expect(result.fix).toMatch(/unset COMPOSE_FFMPEG/);
  });

  it("parses ffmpeg -encoders", () => {
    const names = parseEncoderNames(
      "Encoders:\n V..... = Video\n A..... = Audio\n ------\n V....D libx264              libx264 H.264\n A....D aac                  AAC\n",
    );
    expect([...names]).toEqual(["libx264", "aac"]);
  });

  it("passes when every format's encoder is there", async () => {
    const result = await checkEncoders(await fakeFfmpeg(["libx264", "prores_ks", "libvpx-vp9"]), context());
    expect(result.status).toBe("pass");
  });

  it("fails naming the encoders and formats that are missing", async () => {
    const result = await checkEncoders(await fakeFfmpeg(["libx264"]), context());
    expect(result.status).toBe("fail");
    expect(result.detail).toBe("this ffmpeg lacks prores_ks (needed for mov), libvpx-vp9 (needed for webm)");
    expect(result.fix).toMatch(/^sudo apt-get install ffmpeg/);
  });
});

describe("resources", () => {
  it("reports the default worker count for the cores", () => {
    expect(checkCores(2).detail).toMatch(/^2 cores: --workers auto uses 1/);
    expect(checkCores(12).detail).toMatch(/uses 4/);
  });

  it("judges memory by the 256 MB per worker and the 4 GB rule", () => {
    expect(checkMemory(32 * GiB, 30 * GiB, 8).status).toBe("pass");
    expect(checkMemory(4 * GiB, 3 * GiB, 8)).toMatchObject({ status: "warn", fix: "compose render --workers 1" });
    expect(checkMemory(16 * GiB, 0.6 * GiB, 8).status).toBe("warn");
    expect(checkMemory(16 * GiB, 0.1 * GiB, 8).status).toBe("fail");
  });
});

describe("install commands", () => {
  it("uses the machine's package manager", () => {
    expect(installCommand({ apt: "ffmpeg" }, "apt")).toBe("sudo apt-get install ffmpeg");
    expect(installCommand({ apt: "ffmpeg" }, "dnf")).toBe("sudo dnf install ffmpeg");
    expect(installCommand({ apt: "chromium-headless-shell", brew: "--cask chromium" }, "brew")).toBe("brew install --cask chromium");
    expect(detectPackageManager("darwin")).toBe("brew");
    expect(detectPackageManager("linux", (path) => path === "/usr/bin/dnf")).toBe("dnf");
    expect(detectPackageManager("win32")).toBe("unknown");
  });
});

describe("the report", () => {
  it("prints one line per check with its mark, the fix under a failure, and a summary", () => {
    const checks = [
      { id: "a", name: "alpha", status: "pass" as const, detail: "fine" },
      { id: "b", name: "beta", status: "fail" as const, detail: "missing", fix: "sudo apt-get install beta" },
      { id: "c", name: "gamma", status: "warn" as const, detail: "meh", fix: "do it" },
    ];
    expect(formatDoctorText(checks)).toBe(
      [
        "✓ alpha  fine",
        "✗ beta   missing",
        "         fix: sudo apt-get install beta",
        "! gamma  meh",
        "         fix: do it",
        "",
        "1 check failed (1 warning): compose render needs it fixed.",
        "",
      ].join("\n"),
    );
    expect(summarize(checks)).toEqual({ ok: false, passed: 1, warnings: 1, failed: 1 });
  });
});

describe("the docker line's images", () => {
  const versions: ImageVersions = {
    version: "0.1.0",
    archive: "snapshot 20261121T000000Z",
    "base-image": "debian:bookworm-20260918-slim@sha256:3783",
    browser: "chromium-headless-shell 156.0.8078.79-1~deb12u1",
    ffmpeg: "ffmpeg 7:5.1.9-0+deb12u1",
    fonts: "fonts-dejavu-core 2.37-6",
    node: "v20.20.2",
    lock: "sha256:0cd5",
    "debian-packages": "sha256:2934",
  };
  const pinned = { tag: "compose-render:aaaa", versions, pinned: true };
  const current = {
    tag: "compose-render:bbbb",
    versions: { ...versions, archive: "current", browser: "chromium-headless-shell 156.0.8078.108-1~deb12u1" },
    pinned: false,
  };

  it("names the image --docker renders in with what it holds, and the others --image can take", () => {
    expect(describeImages([current, pinned], pinned)).toBe(
      "renders in compose-render:aaaa: chromium-headless-shell 156.0.8078.79-1~deb12u1, ffmpeg 7:5.1.9-0+deb12u1, Node.js 20.20.2, fonts-dejavu-core 2.37-6; from Debian snapshot 20261121T000000Z on debian:bookworm-20260918-slim@sha256:3783; with --image: compose-render:bbbb (current archive, chromium-headless-shell 156.0.8078.108-1~deb12u1)",
    );
  });

  it("says when there is no pinned image yet, and how one comes", () => {
    expect(describeImages([], undefined)).toBe(
      "no image with the pinned versions yet: compose render --docker builds one (compose docker build --archive current builds from Debian's current archive)",
    );
  });
});
