/**
 * Every bad flag is refused with exit code 2 and exactly one line on stderr naming the flag,
 * quickly and before any browser or ffmpeg starts (both are replaced by traps that record a start).
 *
 * "Quickly": under 2 s of CPU time (user + system, the CLI's and its children's), which does not
 * depend on how busy the machine is; and no waiting: under 2 s of wall time, or on a machine so
 * busy that merely starting the CLI takes longer, under 3 x the wall time of `compose render --help`
 * (which starts the same command, with its flags, and does nothing) run side by side with the case.
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createToolTraps, type ToolTraps } from "../support/tool-traps.js";

interface Case {
  args: string[];
  /** Substrings the one error line must contain. */
  mentions: string[];
  env?: Record<string, string>;
}

const CASES: Record<string, Case> = {
  "--fps 25": { args: ["--fps", "25"], mentions: ["--fps", "25", "24", "30", "60"] },
  "--format avi": { args: ["--format", "avi"], mentions: ["--format", "avi", "mp4", "png-sequence", "gif"] },
  "--quality ultra": { args: ["--quality", "ultra"], mentions: ["--quality", "ultra", "draft", "high"] },
  "--crf 52": { args: ["--crf", "52"], mentions: ["--crf", "52", "51"] },
  "--crf -1": { args: ["--crf=-1"], mentions: ["--crf", "-1"] },
  "--crf with --video-bitrate": { args: ["--crf", "20", "--video-bitrate", "5M"], mentions: ["--crf", "--video-bitrate"] },
  "--video-bitrate fast": { args: ["--video-bitrate", "fast"], mentions: ["--video-bitrate", "fast"] },
  "--hdr with --format webm": { args: ["--hdr", "--format", "webm"], mentions: ["--hdr", "webm"] },
  "--workers 0": { args: ["--workers", "0"], mentions: ["--workers", "0", "8"] },
  "--workers 9": { args: ["--workers", "9"], mentions: ["--workers", "9", "8"] },
  "unknown flag": { args: ["--frobnicate"], mentions: ["--frobnicate"] },
  "--output x.avi": { args: ["--output", "x.avi"], mentions: ["--output", ".avi", ".mp4", ".webm", ".gif", "png-sequence"] },
  "--scale 5": { args: ["--scale", "5"], mentions: ["--scale", "5", "0.25", "4"] },
  "--scale 0.1": { args: ["--scale", "0.1"], mentions: ["--scale", "0.1", "0.25"] },
  "--scale 2x": { args: ["--scale", "2x"], mentions: ["--scale", "2x", "a number"] },
  "--gif-loop with mp4": { args: ["--gif-loop", "3"], mentions: ["--gif-loop", "gif", "mp4"] },
  "--gif-loop -2": { args: ["--format", "gif", "--gif-loop=-2"], mentions: ["--gif-loop", "-2", "-1", "65535"] },
  "--gif-loop 1.5": { args: ["--format", "gif", "--gif-loop", "1.5"], mentions: ["--gif-loop", "1.5", "integer"] },
  "--fps 60 with --format gif": { args: ["--format", "gif", "--fps", "60"], mentions: ["--fps", "24 or 30", "gif", "60"] },
  "--fail-fast without --batch": { args: ["--fail-fast"], mentions: ["--fail-fast", "--batch"] },
  "--shared-frames without --batch": { args: ["--shared-frames"], mentions: ["--shared-frames", "--batch"] },
  "--no-shared-frames without --batch": { args: ["--no-shared-frames"], mentions: ["--no-shared-frames", "--batch"] },
  "--frame abc": { args: ["--frame", "abc"], mentions: ["--frame", "abc"] },
  "--frames 9-3": { args: ["--frames", "9-3"], mentions: ["--frames", "9-3"] },
  "--frames 3to9": { args: ["--frames", "3to9"], mentions: ["--frames", "3to9", "30-59"] },
  "--time soon": { args: ["--time", "soon"], mentions: ["--time", "soon"] },
  "--frame with --frames": { args: ["--frame", "1", "--frames", "1-3"], mentions: ["--frame", "--frames"] },
  "--frame with --format mp4": { args: ["--frame", "1", "--format", "mp4"], mentions: ["--frame", "PNG", "--format mp4"] },
  "flag without its value": { args: ["--fps"], mentions: ["--fps"] },
  "COMPOSE_CAPTURE_MODE=video": { args: [], env: { COMPOSE_CAPTURE_MODE: "video" }, mentions: ["COMPOSE_CAPTURE_MODE", "video"] },
  "COMPOSE_READY_TIMEOUT_MS=soon": { args: [], env: { COMPOSE_READY_TIMEOUT_MS: "soon" }, mentions: ["COMPOSE_READY_TIMEOUT_MS", "soon"] },
};

const html = compositionHtml({ id: "flags", duration: 0.1, background: "#000000" });

let project: TempProject;
let traps: ToolTraps;
const results = new Map<string, CliResult>();
/** Per case: how long `compose render --help` took while the case ran. */
const startupMs = new Map<string, number>();

function timeLimit(name: string): number {
  return Math.max(2000, 3 * startupMs.get(name)!);
}

function runCase(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return render(args, { cwd: project.dir, env: { ...traps.env, ...env }, timeoutMs: 20_000, measureCpu: true });
}

beforeAll(async () => {
  project = await createProject({ "index.html": html, "empty-dir/.keep": "" });
  traps = await createToolTraps();
  // Untimed warm-up: the first start of node and the CLI's modules reads them from disk.
  await runCase(["--help"]);
  const cases: Array<[string, string[], Record<string, string> | undefined]> = [
    // The case's flags come last, so a flag missing its value has nothing to swallow.
    ...Object.entries(CASES).map(([name, test]): [string, string[], Record<string, string> | undefined] => [
      name,
      [".", "--output", "out.mp4", ...test.args],
      test.env,
    ]),
    ["missing path", ["no-such-dir", "--output", "out.mp4"], undefined],
    ["directory without index.html", ["empty-dir", "--output", "out.mp4"], undefined],
  ];
  // One case at a time, each beside its start-up baseline.
  await limited(
    1,
    cases.map(([name, args, env]) => async () => {
      const [result, baseline] = await Promise.all([runCase(args, env), render(["--help"], { cwd: project.dir, env: traps.env })]);
      results.set(name, result);
      startupMs.set(name, baseline.ms);
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(async () => {
  await project?.remove();
  await traps?.remove();
});

function expectRefused(name: string, mentions: string[]): void {
  const result = results.get(name)!;
  expect(result.code, `${name}: ${result.stderr}`).toBe(2);
  expect(result.stdout).toBe("");
  const errorLines = lines(result.stderr);
  expect(errorLines, `${name} printed ${JSON.stringify(result.stderr)}`).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^error: /);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const text of mentions) expect(errorLines[0], `${name}: the line names ${text}`).toContain(text);
  expect(result.cpuMs, `${name} used ${result.cpuMs} ms of CPU`).toBeLessThan(2000);
  const limit = timeLimit(name);
  expect(result.ms, `${name} took ${result.ms} ms (limit ${limit} ms; compose render --help beside it took ${startupMs.get(name)} ms)`).toBeLessThan(limit);
}

describe("bad flags are refused before anything starts", () => {
  for (const [name, { mentions }] of Object.entries(CASES)) {
    it(`${name}: exit 2, one line naming it`, () => expectRefused(name, mentions));
  }

  it("a path that does not exist: exit 2, one line naming the path", () => expectRefused("missing path", ["no-such-dir"]));

  it("a directory without index.html: exit 2, one line naming it", () => expectRefused("directory without index.html", ["empty-dir", "index.html"]));

  it("no browser and no ffmpeg was started, and no output was written, by any of them", async () => {
    expect(results.size).toBe(Object.keys(CASES).length + 2);
    expect(await traps.started()).toEqual([]);
    expect(existsSync(project.path("out.mp4"))).toBe(false);
    expect((await readdir(project.dir)).sort()).toEqual(["empty-dir", "index.html"]);
  });

  it("the traps do record a start (the check above can fail)", async () => {
    const result = await runCase([".", "--output", "trap.mp4"]);
    expect(result.code).toBe(1);
    expect(await traps.started()).toContain("browser");
  });
});
