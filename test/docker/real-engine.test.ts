/**
 * Container mode on a real Docker engine (real-engine.ts provides one, or says why it cannot):
 * `compose docker build` makes the image from what this machine reaches (a debootstrapped Debian
 * 12 and Debian's current archive), labels it with the versions it holds and tags it by their
 * digest; `compose render --docker --image TAG` renders in it examples/hello, a family from the
 * project's font packages, a video and its audio, and png-sequences whose frames are identical
 * from render to render; the files belong to the calling user; SIGTERM stops the container and
 * leaves no output; no container and no temporary file is left behind; doctor names the image.
 */
import { chmod, chown, cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDigest } from "../../packages/cli/src/docker/image.js";
import { imageTagOf, parseVersionsFile, versionsOfLabels } from "../../packages/cli/src/docker/image-versions.js";
import { lines, runCli, startCli, type CliOptions, type CliResult } from "../support/cli.js";
import { decodeAllFrames, decodeFrame, ffprobe, hex, isColour, videoStream } from "../support/media.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { audioLevel, clipColourOfFrame, colourName, generateMedia } from "../support/test-media.js";
import { BASE_IMAGE, chooseEngine, ensureBaseImage, startEngine, type TestEngine } from "./real-engine.js";

const choice = await chooseEngine();
if (choice.kind === "none") process.stderr.write(`test/docker/real-engine.test.ts: the real-engine tests are skipped: ${choice.reason}\n`);

/** A user and group of no account on the machine, for files the render writes as someone other than root. */
const OTHER_USER = { uid: 54321, gid: 54321 };
/** The first build installs Debian, the browser, ffmpeg, Node.js and the npm packages; later ones come from the engine's cache. */
const BUILD_TIMEOUT_MS = 30 * 60_000;
const RENDER_TIMEOUT_MS = 180_000;

/** Draws with everything a wall clock or a random source would make differ between runs, cumulatively. */
const CHAOS = compositionHtml({
  id: "chaos",
  duration: 1,
  backdrop: "#101010",
  body: `<canvas id="paint" width="320" height="180" style="position: absolute; left: 0; top: 0"></canvas>`,
  after: `<script>
  const ctx = document.getElementById("paint").getContext("2d");
  const colour = () => "hsl(" + Math.floor(Math.random() * 360) + ", 80%, " + (30 + Math.floor(Math.random() * 40)) + "%)";
  function frame(timestamp) {
    ctx.strokeStyle = colour();
    ctx.lineWidth = 1 + Math.random() * 3;
    ctx.beginPath();
    ctx.moveTo((timestamp / 1000) * 300, Math.random() * 180);
    ctx.lineTo(Math.random() * 320, Math.random() * 180);
    ctx.stroke();
    ctx.fillStyle = colour();
    ctx.fillText(new Date().toISOString() + " " + performance.now().toFixed(3), 4, 12 + (Date.now() % 160));
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  (function drop() { ctx.fillStyle = colour(); ctx.fillRect(Math.random() * 300, Math.random() * 160, 12, 12); setTimeout(drop, 20 + Math.random() * 80); })();
</script>`,
});

const FONT_TEXT = `<div style="position:absolute;left:10px;top:60px;font:700 40px 'Space Mono', serif;color:#000">Ag Mono</div>`;
const FULL = "position: absolute; left: 0; top: 0; width: 320px; height: 180px;";

describe.skipIf(choice.kind === "none")(
  `compose on a real Docker engine${choice.kind === "none" ? ` (skipped: ${choice.reason})` : ""}`,
  { timeout: RENDER_TIMEOUT_MS },
  () => {
    let engine: TestEngine;
    let tag: string;
    let build: CliResult;
    let project: TempProject;
    let work: string;
    /** TMPDIR of every CLI run here: whatever a run leaves in it is a leftover. */
    let runTmp: string;

    beforeAll(
      async () => {
        engine = await startEngine(choice);
        await ensureBaseImage(engine);
        work = await mkdtemp(join(tmpdir(), "compose-real-engine-"));
        runTmp = join(work, "tmp");
        await mkdir(runTmp);
        build = await runCli(["docker", "build", "--base-image", BASE_IMAGE, "--archive", "current"], {
          env: { ...engine.env, TMPDIR: runTmp },
          timeoutMs: BUILD_TIMEOUT_MS,
        });
        process.stderr.write(`test/docker/real-engine.test.ts: compose docker build took ${(build.ms / 1000).toFixed(1)} s\n`);
        tag = build.stdout.trim();

        project = await createProject({
          "chaos.html": CHAOS,
          "reference.html": compositionHtml({
            id: "main",
            duration: 0.1,
            backdrop: "#ffffff",
            css: `@font-face { font-family: "Space Mono"; font-weight: 700; src: url(node_modules/@fontsource/space-mono/files/space-mono-latin-700-normal.woff2); }`,
            body: FONT_TEXT,
          }),
          "named.html": compositionHtml({ id: "main", duration: 0.1, backdrop: "#ffffff", body: FONT_TEXT }),
          "media.html": compositionHtml({
            id: "media",
            duration: 2,
            backdrop: "#000000",
            body: `<video src="media/colours.mp4" data-start="0" style="${FULL}"></video><audio src="media/tone.wav" data-start="0.5"></audio>`,
          }),
          "long.html": compositionHtml({ id: "long", duration: 20, background: "#204080" }),
          "box.html": compositionHtml({ id: "box", duration: 0.2, background: "#00c000" }),
        });
        await cp(join(REPO_ROOT, "node_modules/@fontsource/space-mono"), project.path("node_modules/@fontsource/space-mono"), { recursive: true });
        await generateMedia(project.dir, ["colours", "tone"]);
      },
      BUILD_TIMEOUT_MS + 15 * 60_000,
    );

    afterAll(async () => {
      await Promise.all([project?.remove(), work && rm(work, { recursive: true, force: true })]);
      await engine?.stop();
    }, 120_000);

    function cliOptions(extra: CliOptions = {}): CliOptions {
      return { cwd: project.dir, timeoutMs: RENDER_TIMEOUT_MS, ...extra, env: { ...engine.env, TMPDIR: runTmp, ...extra.env } };
    }

    /** `compose render --docker --image TAG` of a file of the project, writing under the work directory. */
    function renderInContainer(args: string[], extra: CliOptions = {}): Promise<CliResult> {
      return runCli(["render", ...args, "--docker", "--image", tag], cliOptions(extra));
    }

    /** Nothing a finished run left: no container of the image, nothing in its TMPDIR. */
    async function expectNothingLeft(): Promise<void> {
      const containers = await engine.docker(["ps", "--all", "--quiet", "--filter", `ancestor=${tag}`]);
      expect(containers.code, containers.stderr).toBe(0);
      expect(containers.stdout.trim()).toBe("");
      expect(await readdir(runTmp)).toEqual([]);
    }

    describe("compose docker build --base-image --archive current", () => {
      it("builds the image, prints its tag, and says what it holds", () => {
        expect(build.code, build.stderr).toBe(0);
        expect(tag).toMatch(/^compose-render:[0-9a-f]{16}$/);
        expect(lines(build.stderr).at(-1)).toMatch(
          new RegExp(
            `^docker: built ${tag}: chromium-headless-shell \\S+, ffmpeg \\S+, Node\\.js 2\\d\\.\\S+, fonts-dejavu-core .*; from Debian's current archive on ${BASE_IMAGE}$`,
          ),
        );
      });

      it("labels the image with the versions it holds, and tags it by their digest", async () => {
        const inspected = await engine.docker(["image", "inspect", "--format", "{{json .Config.Labels}}", tag]);
        expect(inspected.code, inspected.stderr).toBe(0);
        const labels = JSON.parse(inspected.stdout) as Record<string, string>;
        const listed = await engine.docker(["run", "--rm", "--network=none", "--entrypoint=cat", tag, "/compose/versions"]);
        expect(versionsOfLabels(labels)).toEqual(parseVersionsFile(listed.stdout));
        const composeLabels = Object.fromEntries(Object.entries(labels).filter(([name]) => name.startsWith("compose.")));
        expect(imageTagOf(composeLabels)).toBe(tag);
        expect(labels).toMatchObject({
          "compose.archive": "current",
          "compose.pinned": "false",
          "compose.base-image": BASE_IMAGE,
          "compose.node": "v20.20.2",
          "compose.lock": lockDigest(),
        });
        expect(labels["compose.browser"]).toMatch(/^chromium-headless-shell 1\d\d\./);
        expect(labels["compose.debian-packages"]).toMatch(/^sha256:[0-9a-f]{64}$/);
        // The unlabelled build is not kept under a tag.
        const images = await engine.docker(["image", "ls", "--format", "{{.Repository}}:{{.Tag}}", "compose-render"]);
        expect(lines(images.stdout).filter((name) => name.includes(":build-"))).toEqual([]);
        await expectNothingLeft();
      });
    });

    describe("compose render --docker --image TAG", () => {
      it("renders examples/hello to an mp4", async () => {
        const output = join(work, "hello", "hello.mp4");
        const result = await renderInContainer([join(REPO_ROOT, "examples/hello"), "--output", output]);
        expect(result.code, result.stderr).toBe(0);
        expect(lines(result.stdout).at(-1)).toMatch(/^Output: .*hello\.mp4 \(3\.00 s, 640x360, /);
        const probe = await ffprobe(output);
        expect(videoStream(probe)).toMatchObject({ codec_name: "h264", width: 640, height: 360 });
        // The accent square at its start, drawn by the composition's script.
        expect(isColour(await decodeFrame(output, 0), 80, 230, hex("#ff5a36"))).toBe(true);
        await expectNothingLeft();
      });

      it("draws a Google Fonts family from the project's font packages, offline", async () => {
        const frames: Buffer[] = [];
        for (const name of ["reference", "named"]) {
          const output = join(work, "fonts", `${name}.png`);
          const result = await renderInContainer([project.path(`${name}.html`), "--frame", "0", "--network", "none", "--output", output]);
          expect(result.code, result.stderr).toBe(0);
          expect(result.stderr).not.toMatch(/network-refused|font-fallback/);
          frames.push(PNG.sync.read(await readFile(output)).data);
        }
        // The bare family name draws exactly what an @font-face naming the package's file draws.
        expect(Buffer.compare(frames[1]!, frames[0]!)).toBe(0);
        await expectNothingLeft();
      });

      it("renders a video and an audio track", async () => {
        const output = join(work, "media", "media.mp4");
        const result = await renderInContainer([project.path("media.html"), "--output", output]);
        expect(result.code, result.stderr).toBe(0);
        const frames = await decodeAllFrames(output);
        expect(frames).toHaveLength(60);
        expect([5, 20, 35, 50].map((n) => colourName(frames[n]!, 160, 90))).toEqual([5, 20, 35, 50].map(clipColourOfFrame));
        const probe = await ffprobe(output);
        expect(probe.streams.map((stream) => stream.codec_type)).toEqual(["video", "audio"]);
        // Silent until the tone starts at 0.5 s, then the tone.
        expect((await audioLevel(output, 0, 0.4)).max).toBeLessThan(-60);
        expect((await audioLevel(output, 0.6, 1.4)).mean).toBeGreaterThan(-40);
        await expectNothingLeft();
      });

      it("renders png-sequences whose frames are identical from render to render", async () => {
        const outputs = [join(work, "chaos", "1"), join(work, "chaos", "2")];
        for (const output of outputs) {
          const result = await renderInContainer([project.path("chaos.html"), "--format", "png-sequence", "--workers", "1", "--output", output]);
          expect(result.code, result.stderr).toBe(0);
        }
        const names = (await readdir(outputs[0]!)).sort();
        expect(names).toHaveLength(30);
        expect((await readdir(outputs[1]!)).sort()).toEqual(names);
        const [first, second] = await Promise.all(outputs.map((output) => decodeAllFrames(`${output}/frame_%06d.png`)));
        // The frames change with time (and so with the random values drawn at each time)...
        expect(new Set(first!.map((frame) => frame.data.toString("base64"))).size).toBeGreaterThan(25);
        // ...and the second render decodes to exactly the same frames.
        for (let i = 0; i < first!.length; i++) expect(first![i]!.data.equals(second![i]!.data), names[i]).toBe(true);
        await expectNothingLeft();
      });

      it("writes files that belong to the calling user", async () => {
        const output = join(work, "mine", "box.mp4");
        const result = await renderInContainer([project.path("box.html"), "--output", output]);
        expect(result.code, result.stderr).toBe(0);
        const owner = await stat(output);
        expect([owner.uid, owner.gid]).toEqual([process.getuid!(), process.getgid!()]);
      });

      it.skipIf(choice.kind !== "own")("maps another user's uid and gid into the container: the files are theirs", async () => {
        // A project and a TMPDIR of that user's own, and the engine's socket open to their group.
        const theirs = join(work, "theirs");
        await mkdir(join(theirs, "tmp"), { recursive: true });
        await cp(project.path("box.html"), join(theirs, "box.html"));
        for (const path of [theirs, join(theirs, "tmp"), join(theirs, "box.html")]) await chown(path, OTHER_USER.uid, OTHER_USER.gid);
        await chmod(work, 0o755);
        await engine.allowGroup(OTHER_USER.gid);
        const output = join(theirs, "out", "box.mp4");
        const result = await runCli(["render", join(theirs, "box.html"), "--docker", "--image", tag, "--output", output], {
          cwd: theirs,
          timeoutMs: RENDER_TIMEOUT_MS,
          user: OTHER_USER,
          env: { ...engine.env, TMPDIR: join(theirs, "tmp"), HOME: theirs },
        });
        expect(result.code, result.stderr).toBe(0);
        for (const path of [join(theirs, "out"), output]) {
          const owner = await stat(path);
          expect([owner.uid, owner.gid], path).toEqual([OTHER_USER.uid, OTHER_USER.gid]);
        }
        expect(await readdir(join(theirs, "tmp"))).toEqual([]);
      });

      it("stops the container on SIGTERM, leaving no output", async () => {
        const output = join(work, "stopped", "long.mp4");
        const cli = startCli(["render", project.path("long.html"), "--docker", "--image", tag, "--workers", "1", "--output", output], cliOptions());
        await cli.waitForStdout(/frames \(\d+%\)/);
        process.kill(cli.pid, "SIGTERM");
        const result = await cli.result;
        expect(result.code, result.stderr).toBe(130);
        expect(existsSync(output)).toBe(false);
        expect(await readdir(join(work, "stopped"))).toEqual([]);
        await expectNothingLeft();
      });

      it("refuses an image the engine does not have, in one line", async () => {
        const result = await runCli(["render", project.path("box.html"), "--docker", "--image", "compose-render:0000000000000000"], cliOptions());
        expect(result.code).toBe(1);
        expect(lines(result.stderr)).toEqual([
          "error: docker: the engine has no image compose-render:0000000000000000: build one with compose docker build (it prints the tag), or leave out --image",
        ]);
      });
    });

    describe("compose doctor", () => {
      it("names the images container mode can use, with their versions", async () => {
        const result = await runCli(["doctor", "--json"], cliOptions({ timeoutMs: 60_000 }));
        const report = JSON.parse(result.stdout) as { checks: Array<{ id: string; status: string; detail: string }> };
        const docker = report.checks.find((check) => check.id === "docker")!;
        expect(docker.status).toBe("pass");
        const labels = JSON.parse((await engine.docker(["image", "inspect", "--format", "{{json .Config.Labels}}", tag])).stdout) as Record<string, string>;
        expect(docker.detail).toContain(`${tag} (current archive, ${labels["compose.browser"]})`);
      });
    });
  },
);
