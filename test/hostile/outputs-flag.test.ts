/**
 * `--outputs` of compose serve and compose worker is checked at start: a file, a place below a
 * file and a read-only disk are flag errors (one line, exit 2), not a raw EEXIST or ENOTDIR.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli } from "../support/cli.js";

let dir: string;
let readOnly = false;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "compose-outputs-flag-"));
  await writeFile(join(dir, "file"), "not a directory");
  await mkdir(join(dir, "ro"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=16k", "tmpfs", join(dir, "ro")], { stdio: "ignore" });
    readOnly = true;
  } catch {
    // Without root there is no read-only disk to try; that case is skipped.
  }
});

afterAll(async () => {
  if (readOnly) execFileSync("umount", [join(dir, "ro")]);
  await rm(dir, { recursive: true, force: true });
});

const COMMANDS: Record<string, string[]> = { serve: ["serve", "--port", "0"], worker: ["worker", "--queue", "redis://127.0.0.1:1"] };

describe.each(Object.keys(COMMANDS))("compose %s --outputs", (command) => {
  it.each([
    ["file", (path: string) => `${path} is a file; give a directory (created if missing)`],
    ["file/below", (path: string) => `${path} is below a file (${join(dir, "file")}); give a directory`],
    ["ro/out", (path: string) => `${path} cannot be written (EROFS); give a directory this process may create files in`],
  ])("%s is a flag error, exit 2", async (name, message) => {
    if (name.startsWith("ro") && !readOnly) return;
    const path = join(dir, name);
    const result = await runCli([...COMMANDS[command]!, "--outputs", path], { timeoutMs: 20_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(lines(result.stderr)).toEqual([`error: --outputs ${message(path)}`]);
  });
});
