/**
 * What `compose render` prints when stdout is not a terminal (a pipe here): plain lines, no
 * progress bar; and --quiet, which prints only the output path.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const html = compositionHtml({
  id: "terminal-demo",
  duration: 1,
  backdrop: "#102030",
  css: `#box { position: absolute; left: 0; top: 70px; width: 40px; height: 40px; background: #ff8800; animation: go 1s linear both; }
        @keyframes go { to { transform: translateX(280px); } }`,
  body: `<div id="box"></div>`,
});

let project: TempProject;
let normal: CliResult;
let quiet: CliResult;

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  const both = await limited(2, [
    () => render([".", "--fps", "24", "--quality", "draft", "--workers", "1", "--output", "out.mp4"], { cwd: project.dir }),
    () => render([".", "--quiet", "--workers", "1", "--output", "quiet.mp4"], { cwd: project.dir }),
  ]);
  [normal, quiet] = [both[0]!, both[1]!];
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

/** formatBytes-style sizes: "812 B", "23.4 KB", "1.2 MB". */
function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?) (B|KB|MB|GB)$/.exec(text);
  if (!match) throw new Error(`not a size: ${text}`);
  return Number(match[1]) * 1024 ** ["B", "KB", "MB", "GB"].indexOf(match[2]!);
}

describe("terminal output without a TTY", () => {
  it("succeeds with nothing on stderr and no terminal control characters on stdout", () => {
    expect(normal.stderr).toBe("");
    expect(normal.code).toBe(0);
    expect(normal.stdout).not.toMatch(/[\r\u001b]/);
  });

  it("starts with a progress line naming the composition, the fps and the quality", () => {
    const first = lines(normal.stdout)[0]!;
    expect(first).toContain("terminal-demo");
    expect(first).toMatch(/\b24 fps\b/);
    expect(first).toMatch(/\bdraft\b/);
    expect(first).toMatch(/\b24 frames\b/);
  });

  it("prints periodic progress lines with frames done out of 24, increasing, ending at 24/24", () => {
    const progress = lines(normal.stdout)
      .map((line) => /(\d+)\/24 frames/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]));
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toBe(24);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(new Set(progress).size).toBe(progress.length);
  });

  it("reports the frames captured and the time taken", () => {
    const line = lines(normal.stdout).find((l) => /^Captured /.test(l));
    expect(line).toMatch(/^Captured 24 frames in \d+(\.\d+)? s\b/);
    // The time is plausible: more than zero, less than the whole run.
    const seconds = Number(/in (\d+(?:\.\d+)?) s/.exec(line!)![1]);
    expect(seconds).toBeLessThanOrEqual(normal.ms / 1000);
  });

  it("ends with the output line: file, duration, resolution and size", async () => {
    const all = lines(normal.stdout);
    const last = all.at(-1)!;
    const match = /^Output: (.+) \((\d+\.\d+) s, (\d+x\d+), (.+)\)$/.exec(last);
    expect(match, last).not.toBeNull();
    const [, file, duration, resolution, size] = match!;
    expect(resolve(project.dir, file!)).toBe(resolve(project.dir, "out.mp4"));
    expect(Number(duration)).toBeCloseTo(1, 2);
    expect(resolution).toBe("320x180");
    const actual = (await stat(project.path("out.mp4"))).size;
    expect(Math.abs(parseSize(size!) - actual) / actual).toBeLessThan(0.05);
    // In order: start line, progress, captured, output.
    expect(all.findIndex((l) => l.startsWith("Captured"))).toBe(all.length - 2);
  });
});

describe("--quiet", () => {
  it("prints only the output path, one line, and nothing on stderr", async () => {
    expect(quiet.stderr).toBe("");
    expect(quiet.code).toBe(0);
    const printed = lines(quiet.stdout);
    expect(printed).toHaveLength(1);
    expect(resolve(project.dir, printed[0]!)).toBe(project.path("quiet.mp4"));
    expect((await stat(project.path("quiet.mp4"))).size).toBeGreaterThan(0);
  });
});

describe("a one-frame render", () => {
  it("speaks of 1 frame, not 1 frames", async () => {
    const one = await render([".", "--frames", "0-0", "--workers", "1", "--output", "one.mp4"], { cwd: project.dir });
    expect(one.code).toBe(0);
    const said = lines(one.stdout);
    expect(said[0]).toMatch(/: 1 frame, 320x180, 1 worker;/);
    expect(said.find((l) => l.startsWith("Captured "))).toMatch(/^Captured 1 frame in /);
  });
});
