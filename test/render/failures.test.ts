/**
 * A render that fails ends cleanly: exit code 1 (130 for Ctrl-C), one line on stderr and no stack
 * trace, nothing at the output path, no staging leftovers (`.<name>.partial-*`) beside it, no
 * temporary files, and no browser or ffmpeg process left running.
 *
 * Each run gets its own TMPDIR (to see temporary files) and a tag in its environment, inherited
 * by every process it starts, so leftovers are found exactly even with other renders around.
 */
import { createServer, type Server, type Socket } from "node:net";
import { mkdir, readdir } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  descendantsOf,
  leftoverProcesses,
  lines,
  limited,
  startCli,
  taggedProcesses,
  type CliResult,
  type CliRun,
  type ProcessInfo,
  RENDER_HOOK_TIMEOUT_MS,
} from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const READY_TIMEOUT_MS = 1500;
/** Set only where a scenario waits for something that never comes; the others keep the default. */
const SHORT_READY = { COMPOSE_READY_TIMEOUT_MS: String(READY_TIMEOUT_MS) };
/**
 * A run still going after this long is killed and counted as hanging (timedOut). Scenarios that
 * wait for the ready timeout must end well before it; the margin is for a busy machine.
 */
const RUN_LIMIT_MS = 40_000;
const SOON_AFTER_TIMEOUT_MS = READY_TIMEOUT_MS + 15_000;

/** A server that accepts connections and never answers: an image from it never loads. */
let silentServer: Server;
const silentSockets = new Set<Socket>();
let silentPort: number;

const BOX = `<div style="position:absolute;left:20px;top:20px;width:60px;height:60px;background:#ff0000"></div>`;
const moving = `#mover { position: absolute; left: 0; top: 100px; width: 40px; height: 40px; background: #00ff00; animation: go 3s linear both; }
  @keyframes go { to { transform: translateX(280px); } }`;

function projectFiles(): Record<string, string> {
  return {
    "script-error/index.html": compositionHtml({ id: "script-error", duration: 0.5, body: BOX, after: `<script src="scripts/boom.js"></script>` }),
    "script-error/scripts/boom.js": `const unused = 1;\nfunction explode() { throw new Error("kaboom from boom.js"); }\nexplode();\n`,
    "timer-error/index.html": compositionHtml({
      id: "timer-error",
      duration: 0.5,
      body: BOX,
      after: `<script>setTimeout(function lateFailure() { throw new TypeError("late failure at 0.2 s"); }, 200);</script>`,
    }),
    "image-never-loads/index.html": compositionHtml({
      id: "image-never-loads",
      duration: 0.5,
      body: `${BOX}<img src="http://127.0.0.1:${silentPort}/never-answers.png" style="position:absolute;left:100px;top:20px">`,
    }),
    "font-never-loads/index.html": compositionHtml({
      id: "font-never-loads",
      duration: 0.5,
      css: `@font-face { font-family: Never; src: url(http://127.0.0.1:${silentPort}/never-answers.woff2); } #text { font-family: Never; }`,
      body: `${BOX}<div id="text">waiting for a font</div>`,
    }),
    "late-image/index.html": compositionHtml({
      id: "late-image",
      duration: 0.5,
      body: `${BOX}<img id="late" style="position:absolute;left:100px;top:20px">`,
      after: `<script>setTimeout(() => { document.getElementById("late").src = "http://127.0.0.1:${silentPort}/late-image.png"; }, 200);</script>`,
    }),
    "seek-never-ready/index.html": compositionHtml({
      id: "seek-never-ready",
      duration: 0.5,
      body: BOX,
      after: `<script>window.__compose.onSeek(() => new Promise(() => {}));</script>`,
    }),
    "plain/index.html": compositionHtml({ id: "plain", duration: 0.5, backdrop: "#000000", body: BOX }),
    "long/index.html": compositionHtml({ id: "long", duration: 3, backdrop: "#000000", css: moving, body: `${BOX}<div id="mover"></div>` }),
  };
}

let project: TempProject;

interface Outcome {
  result: CliResult;
  /** Tagged processes still alive after the run (killed by the check). */
  leftovers: ProcessInfo[];
  /** The output's directory after the run. */
  besideOutput: string[];
  /** The run's TMPDIR after the run. */
  temporary: string[];
  /** For the crash test: the browser processes killed. */
  killed?: ProcessInfo[];
  /** For the crash test: every tagged process alive just before the kill. */
  running?: ProcessInfo[];
}
const outcomes = new Map<string, Outcome>();

interface Scenario {
  composition: string;
  args?: string[];
  env?: Record<string, string>;
  processGroup?: boolean;
  /** Runs while the CLI runs, e.g. to interrupt it; may report processes it saw and killed. */
  during?: (run: CliRun) => Promise<{ running: ProcessInfo[]; killed: ProcessInfo[] } | void>;
}

async function runScenario(name: string, scenario: Scenario): Promise<void> {
  const outDir = project.path("out", name);
  const tmp = project.path("tmp", name);
  await mkdir(outDir, { recursive: true });
  await mkdir(tmp, { recursive: true });
  const run = startCli(["render", project.path(scenario.composition), "--workers", "1", "--output", `${outDir}/video.mp4`, ...(scenario.args ?? [])], {
    env: { TMPDIR: tmp, ...scenario.env },
    timeoutMs: RUN_LIMIT_MS,
    processGroup: scenario.processGroup,
  });
  const seen = await scenario.during?.(run).catch(() => undefined);
  const result = await run.result;
  const leftovers = await leftoverProcesses(run.tag);
  outcomes.set(name, {
    result,
    leftovers,
    besideOutput: (await readdir(outDir)).sort(),
    temporary: (await readdir(tmp)).sort(),
    killed: seen?.killed,
    running: seen?.running,
  });
}

/** The CLI's pid and the pids of the browsers it started: tagged, below the CLI, a chromium binary. */
function browsersOf(run: CliRun): ProcessInfo[] {
  const below = new Set(descendantsOf(run.pid).map((info) => info.pid));
  return taggedProcesses(run.tag).filter((info) => below.has(info.pid) && /chromium/.test(info.cmdline));
}

const FIRST_PROGRESS = /^\s*\d+\/\d+ frames/m;

beforeAll(async () => {
  silentServer = createServer((socket) => {
    silentSockets.add(socket);
    socket.on("close", () => silentSockets.delete(socket));
  });
  await new Promise<void>((resolve) => silentServer.listen(0, "127.0.0.1", resolve));
  silentPort = (silentServer.address() as AddressInfo).port;
  project = await createProject(projectFiles());

  await limited(3, [
    () => runScenario("script-error", { composition: "script-error" }),
    () => runScenario("timer-error", { composition: "timer-error" }),
    () => runScenario("image-never-loads", { composition: "image-never-loads", env: SHORT_READY }),
    () => runScenario("seek-never-ready", { composition: "seek-never-ready", env: SHORT_READY }),
    () => runScenario("font-never-loads", { composition: "font-never-loads", env: SHORT_READY }),
    () => runScenario("late-image", { composition: "late-image", env: SHORT_READY }),
    () => runScenario("ffmpeg-missing", { composition: "plain", env: { COMPOSE_FFMPEG: "/nonexistent/ffmpeg" } }),
    () => runScenario("browser-missing", { composition: "plain", env: { COMPOSE_BROWSER: "/nonexistent/chromium-headless-shell" } }),
    () =>
      runScenario("browser-crash", {
        composition: "long",
        during: async (run) => {
          await run.waitForStdout(FIRST_PROGRESS);
          const running = taggedProcesses(run.tag);
          const browsers = browsersOf(run);
          for (const browser of browsers) process.kill(browser.pid, "SIGKILL");
          return { running, killed: browsers };
        },
      }),
    () =>
      runScenario("sigint", {
        composition: "long",
        during: async (run) => {
          await run.waitForStdout(FIRST_PROGRESS);
          run.child.kill("SIGINT");
        },
      }),
    () =>
      runScenario("ctrl-c", {
        composition: "long",
        processGroup: true,
        during: async (run) => {
          await run.waitForStdout(FIRST_PROGRESS);
          // What a terminal does on Ctrl-C: SIGINT to every process of the foreground job.
          process.kill(-run.pid, "SIGINT");
        },
      }),
  ]);
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silentServer?.close(resolve));
  await project?.remove();
});

/** The common promise of every failure. */
function expectCleanFailure(name: string, exitCode = 1): string {
  const { result, leftovers, besideOutput, temporary } = outcomes.get(name)!;
  expect(result.timedOut, `${name} did not end by itself`).toBe(false);
  expect(result.code, `${name}: ${result.stderr}`).toBe(exitCode);
  const errorLines = lines(result.stderr);
  expect(errorLines, `${name} stderr: ${result.stderr}`).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^error: /);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(besideOutput, `${name}: left beside the output`).toEqual([]);
  expect(temporary, `${name}: left in TMPDIR`).toEqual([]);
  expect(
    leftovers.map((p) => `${p.pid} ${p.cmdline.slice(0, 120)}`),
    `${name}: processes left running`,
  ).toEqual([]);
  return errorLines[0]!;
}

describe("page script errors", () => {
  it("an error thrown while the page loads: the message and its source file are named, as a path in the project", () => {
    const line = expectCleanFailure("script-error");
    expect(line).toContain("kaboom from boom.js");
    expect(line).toMatch(/\(scripts\/boom\.js:2:\d+\)$/);
  });

  it("an error thrown by a timer in the middle of the render is named too", () => {
    const line = expectCleanFailure("timer-error");
    expect(line).toContain("late failure at 0.2 s");
  });
});

describe("a composition that never becomes ready (COMPOSE_READY_TIMEOUT_MS=1500)", () => {
  it("an <img> whose server never answers: ends cleanly soon after the timeout", () => {
    expectCleanFailure("image-never-loads");
    expect(outcomes.get("image-never-loads")!.result.ms).toBeLessThan(SOON_AFTER_TIMEOUT_MS);
  });

  it("an <img> whose server never answers: the message names the image it waited for", () => {
    const line = lines(outcomes.get("image-never-loads")!.result.stderr)[0] ?? "";
    expect(line).toContain("never-answers.png");
  });

  it("a web font whose server never answers: ends cleanly soon after the timeout", () => {
    expectCleanFailure("font-never-loads");
    expect(outcomes.get("font-never-loads")!.result.ms).toBeLessThan(SOON_AFTER_TIMEOUT_MS);
  });

  it("a web font whose server never answers: the message names the font", () => {
    const line = lines(outcomes.get("font-never-loads")!.result.stderr)[0] ?? "";
    expect(line).toMatch(/font/i);
  });

  it("an image a timer starts loading at 0.2 s, from a server that never answers: names the frame's time and the image", () => {
    const line = expectCleanFailure("late-image");
    expect(line).toContain("0.200 s");
    expect(line).toContain("late-image.png");
    expect(outcomes.get("late-image")!.result.stdout).toMatch(/^Rendering late-image/m);
  });

  it("an onSeek promise that never resolves: ends cleanly, naming onSeek and the time limit", () => {
    const line = expectCleanFailure("seek-never-ready");
    expect(line).toContain("onSeek");
    expect(line).toContain("1.5 s");
    expect(outcomes.get("seek-never-ready")!.result.ms).toBeLessThan(SOON_AFTER_TIMEOUT_MS);
  });
});

describe("missing tools", () => {
  it("ffmpeg missing (COMPOSE_FFMPEG=/nonexistent): names the ffmpeg package; the browser that was started is gone", () => {
    const line = expectCleanFailure("ffmpeg-missing");
    expect(line).toMatch(/\bffmpeg\b/);
    expect(line).toMatch(/install.*\bffmpeg\b/);
  });

  it("browser missing (COMPOSE_BROWSER=/nonexistent): names chromium-headless-shell", () => {
    const line = expectCleanFailure("browser-missing");
    expect(line).toContain("chromium-headless-shell");
  });
});

describe("interruptions mid-render", () => {
  it("the browser killed (-9) after the first progress line: exit 1, one line about the browser, nothing left", () => {
    const { killed, running, result } = outcomes.get("browser-crash")!;
    expect(killed?.length, "browser processes found below the CLI").toBeGreaterThan(0);
    // The leftover check sees what a render runs: the CLI, its browser and its ffmpeg.
    const commands = running!.map((p) => p.cmdline);
    expect(commands.some((c) => /chromium/.test(c))).toBe(true);
    expect(commands.some((c) => /^\S*ffmpeg /.test(c))).toBe(true);
    expect(commands.some((c) => c.includes("compose.js render"))).toBe(true);
    expect(result.stdout).toMatch(FIRST_PROGRESS);
    expect(result.stdout).not.toMatch(/^Output:/m);
    const line = expectCleanFailure("browser-crash");
    expect(line).toMatch(/browser/i);
  });

  it("SIGINT to the CLI after the first progress line: exit 130, nothing left", () => {
    const { result } = outcomes.get("sigint")!;
    expect(result.stdout).toMatch(FIRST_PROGRESS);
    expect(result.stdout).not.toMatch(/^Output:/m);
    expectCleanFailure("sigint", 130);
  });

  it("Ctrl-C at a terminal (SIGINT to the whole process group, ffmpeg included): exit 130, nothing left", () => {
    const { result } = outcomes.get("ctrl-c")!;
    expect(result.stdout).toMatch(FIRST_PROGRESS);
    expect(result.stdout).not.toMatch(/^Output:/m);
    expectCleanFailure("ctrl-c", 130);
  });
});
