/**
 * compose doctor on this machine, and with ffmpeg and ffprobe missing from PATH: the CLI runs as a
 * subprocess whose PATH holds a directory with nothing but a link to node.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, type CliResult } from "../support/cli.js";

interface Check {
  id: string;
  name: string;
  status: "pass" | "warn" | "fail";
  detail: string;
  fix?: string;
}

interface DoctorJson {
  ok: boolean;
  passed: number;
  warnings: number;
  failed: number;
  checks: Check[];
}

const RENDERING_NEEDS = ["node", "ffmpeg", "encoders", "ffprobe", "browser"];

let nodeOnly: string;
let healthyText: CliResult;
let healthyJson: CliResult;
let missingText: CliResult;

beforeAll(async () => {
  nodeOnly = await mkdtemp(join(tmpdir(), "compose-doctor-path-"));
  await symlink(process.execPath, join(nodeOnly, "node"));
  const env = { PATH: nodeOnly };
  [healthyText, healthyJson, missingText] = await Promise.all([runCli(["doctor"]), runCli(["doctor", "--json"]), runCli(["doctor"], { env })]);
});

afterAll(() => rm(nodeOnly, { recursive: true, force: true }));

/** The check's line and the lines under it (its fix), from the text report. */
function block(stdout: string, name: string): string[] {
  const all = lines(stdout);
  const start = all.findIndex((line) => new RegExp(`^. ${name}\\s`).test(line));
  expect(start, `a line for ${name} in:\n${stdout}`).toBeGreaterThanOrEqual(0);
  const end = all.findIndex((line, i) => i > start && /^\S/.test(line));
  return all.slice(start, end === -1 ? undefined : end);
}

describe("compose doctor on this machine", () => {
  it("passes every check rendering needs and exits 0", () => {
    expect(healthyText.code, healthyText.stdout + healthyText.stderr).toBe(0);
    for (const name of ["Node.js", "ffmpeg", "encoders", "ffprobe", "browser", "cores", "memory", "disk"]) {
      expect(block(healthyText.stdout, name)[0]).toMatch(/^✓ /);
    }
    expect(block(healthyText.stdout, "encoders")[0]).toContain("libx264 (mp4), prores_ks (mov), libvpx-vp9 (webm)");
    expect(block(healthyText.stdout, "browser")[0]).toMatch(/rendered a test frame/);
    expect(lines(healthyText.stdout).at(-1)).toMatch(/^Ready to render/);
  });

  it("reports docker without a reachable engine as a warning with its fix, not a failure", () => {
    const docker = block(healthyText.stdout, "docker");
    if (existsSync("/var/run/docker.sock")) {
      expect(docker[0]).toMatch(/^[✓!] /);
      return;
    }
    expect(docker[0]).toMatch(/^! docker\s+.*(not reachable|not found)/);
    expect(docker[1]).toMatch(/^\s+fix: \S/);
  });

  it("gives the same checks as JSON", () => {
    expect(healthyJson.code).toBe(0);
    const report = JSON.parse(healthyJson.stdout) as DoctorJson;
    expect(report.ok).toBe(true);
    expect(report.failed).toBe(0);
    expect(report.checks.map((check) => check.id)).toEqual(["node", "ffmpeg", "encoders", "ffprobe", "browser", "docker", "cores", "memory", "disk"]);
    for (const id of RENDERING_NEEDS) expect(report.checks.find((check) => check.id === id)?.status).toBe("pass");
    expect(["pass", "warn"]).toContain(report.checks.find((check) => check.id === "docker")?.status);
  });
});

describe("compose doctor with ffmpeg missing from PATH", () => {
  it("fails the ffmpeg line, prints the command that fixes it and exits 1", () => {
    expect(missingText.code, missingText.stdout + missingText.stderr).toBe(1);
    const ffmpeg = block(missingText.stdout, "ffmpeg");
    expect(ffmpeg[0]).toMatch(/^✗ ffmpeg\s+not found on PATH/);
    expect(ffmpeg[1]).toMatch(/^\s+fix: sudo apt-get install ffmpeg$/);
    expect(block(missingText.stdout, "ffprobe")[0]).toMatch(/^✗ /);
    expect(block(missingText.stdout, "encoders")[0]).toMatch(/^✗ /);
    // The rest does not depend on PATH: node and the browser (found by its absolute path) still pass.
    expect(block(missingText.stdout, "Node.js")[0]).toMatch(/^✓ /);
    expect(block(missingText.stdout, "browser")[0]).toMatch(/^✓ /);
    // docker is not on that PATH either, but local rendering does not need it.
    expect(block(missingText.stdout, "docker")[0]).toMatch(/^! /);
    expect(lines(missingText.stdout).at(-1)).toMatch(/^3 checks failed/);
  });
});
