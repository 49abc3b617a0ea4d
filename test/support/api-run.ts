import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { RenderEvent } from "@compose/renderer";
import { descendantsOf, leftoverProcesses, startNode, type CliRun, type ProcessInfo } from "./cli.js";
import { REPO_ROOT } from "./project.js";

const RUNNER = join(REPO_ROOT, "test/support/render-api-runner.mjs");

export interface IsolatedRun {
  events: RenderEvent[];
  error?: { code: string; message: string };
  ms: number;
  timedOut: boolean;
  /** Processes (browsers, ffmpeg) still alive after the run. */
  leftovers: string[];
  /** What the run left in its own TMPDIR. */
  temporary: string[];
  /** What the run left in the output's directory. */
  besideOutput: string[];
}

/**
 * Calls render() in a child Node process with its own TMPDIR and an empty output directory,
 * so that whatever it leaves (processes, temporary files, partial outputs) is seen exactly.
 * `during` runs alongside, e.g. to kill a renderer once frames flow.
 */
export async function isolatedRender(
  workDir: string,
  request: Record<string, unknown> & { output: string },
  during?: (run: CliRun) => Promise<void>,
  timeoutMs = 60_000,
): Promise<IsolatedRun> {
  const tmp = join(workDir, "tmp");
  const outDir = join(workDir, "out");
  await mkdir(tmp, { recursive: true });
  await mkdir(outDir, { recursive: true });
  const run = startNode([RUNNER, JSON.stringify({ ...request, output: join(outDir, request.output) })], { env: { TMPDIR: tmp }, timeoutMs });
  await during?.(run).catch(() => undefined);
  const output = await run.result;
  const parsed = output.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string });
  const result = parsed.pop() as { type: string; error?: { code: string; message: string } } | undefined;
  if (result?.type !== "result" && !output.timedOut) throw new Error(`runner failed: ${output.stderr}`);
  return {
    events: parsed as RenderEvent[],
    error: result?.error,
    ms: output.ms,
    timedOut: output.timedOut,
    leftovers: (await leftoverProcesses(run.tag)).map((p) => p.cmdline.slice(0, 120)),
    temporary: await readdir(tmp),
    besideOutput: await readdir(outDir),
  };
}

/** The renderer processes (Chromium's `--type=renderer`) below a run. */
export function renderersOf(run: CliRun): ProcessInfo[] {
  return descendantsOf(run.pid).filter((info) => /--type=renderer/.test(info.cmdline));
}

/** Resolves once the run has reported its first captured frames. */
export function capturing(run: CliRun): Promise<string> {
  return run.waitForStdout(/"type":"progress","stage":"capture","frame":[1-9]/);
}
