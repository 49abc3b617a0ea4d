/**
 * `kill -9` of the CLI mid-render: the browser (over a pipe) and ffmpeg (on its stdin) go with it,
 * and the next render removes the temporary directories the killed process left behind.
 */
import { mkdir, readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leftoverProcesses as leftoverOfServe, spawnServe } from "../../packages/producer/test/support/serve.js";
import { openStream } from "../../packages/producer/test/support/http.js";
import { leftoverProcesses, startCli, taggedProcesses, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

let project: TempProject;
let killedPid = 0;
let runningBeforeKill: string[] = [];
let leftAfterKill: string[] = [];
let tmpAfterKill: string[] = [];
let besideAfterKill: string[] = [];
let next: CliResult;
let tmpAfterNext: string[] = [];
let besideAfterNext: string[] = [];
let serveLeft: string[] = [];
let serveWasRendering = false;

beforeAll(async () => {
  project = await createProject({
    "long/index.html": compositionHtml({
      id: "long",
      duration: 60,
      backdrop: "#000000",
      css: "#m { animation: m 1s linear infinite; } @keyframes m { to { transform: translateX(200px); } }",
      body: `<div id="m">moving</div>`,
    }),
    "short/index.html": compositionHtml({ id: "short", duration: 0.2, backdrop: "#000000" }),
  });
  const tmp = project.path("tmp");
  const out = project.path("out");
  await mkdir(tmp);
  await mkdir(out);
  const env = { TMPDIR: tmp };
  const run = startCli(["render", project.path("long"), "--workers", "1", "--output", `${out}/video.mp4`], { env, timeoutMs: 120_000 });
  await run.waitForStdout(/^\s*\d+\/\d+ frames/m);
  runningBeforeKill = taggedProcesses(run.tag).map((p) => p.cmdline);
  killedPid = run.pid;
  run.child.kill("SIGKILL");
  await run.result;
  leftAfterKill = (await leftoverProcesses(run.tag, 10_000)).map((p) => p.cmdline.slice(0, 100));
  tmpAfterKill = await readdir(tmp);
  besideAfterKill = await readdir(out);
  const second = startCli(["render", project.path("short"), "--workers", "1", "--output", `${out}/video.mp4`], { env });
  next = await second.result;
  tmpAfterNext = await readdir(tmp);
  besideAfterNext = await readdir(out);

  const serve = await spawnServe(["--port", "0", "--projects", project.dir, "--outputs", project.path("serve-out")]).ready;
  const stream = await openStream(serve.url, { composition: "long", workers: 1 });
  await stream.next("progress");
  serveWasRendering = true;
  serve.child.kill("SIGKILL");
  await serve.exited;
  serveLeft = await leftoverOfServe(serve.tag, 10_000);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(() => project?.remove());

describe("kill -9 of compose serve mid-render", () => {
  it("the browser and ffmpeg of its render exit with it", () => {
    expect(serveWasRendering).toBe(true);
    expect(serveLeft).toEqual([]);
  });
});

describe("kill -9 of the CLI mid-render", () => {
  it("the browser and ffmpeg it started exit with it", () => {
    expect(runningBeforeKill.some((command) => /chromium/.test(command))).toBe(true);
    expect(runningBeforeKill.some((command) => /^\S*ffmpeg /.test(command))).toBe(true);
    expect(leftAfterKill).toEqual([]);
  });

  it("its temporary directories are named after it, and the next render removes them", () => {
    expect(tmpAfterKill).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^compose-render-${killedPid}-`)),
        expect.stringMatching(new RegExp(`^compose-browser-${killedPid}-`)),
      ]),
    );
    expect(besideAfterKill).toEqual([expect.stringMatching(new RegExp(`^\\.video\\.mp4\\.partial-${killedPid}-`))]);
    expect(next.code, next.stderr).toBe(0);
    expect(tmpAfterNext).toEqual([]);
    expect(besideAfterNext).toEqual(["video.mp4"]);
  });
});
