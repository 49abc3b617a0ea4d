import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Job } from "bullmq";
import { UnrecoverableError } from "bullmq";
import {
  assembleChunks,
  outputProblem,
  planChunks,
  planFromJson,
  planToJson,
  render,
  renderRange,
  RenderError,
  type JoinedOutput,
  type RenderFinishedEvent,
  type RenderHooks,
  type RenderPlan,
} from "@compose/renderer";
import type { RenderSettings } from "../jobs/render-executor.js";
import { CompositionPathError, resolveProjectComposition } from "../project/resolve-project-composition.js";
import { EventRelay } from "./event-relay.js";
import { chunkDirectory, encodeFailure, isOutputName, planFile, type PlanResult, type RenderJobData, type TaskData } from "./protocol.js";

export interface TaskContext {
  /** This machine's view of the shared projects directory (a real path). */
  projectsDir: string;
  /** This machine's view of the shared outputs directory. */
  outputsDir: string;
  renderSettings: RenderSettings;
}

export type TaskResult = RenderFinishedEvent | PlanResult | JoinedOutput;

/** One line naming a task, for the worker's log. */
export function describeTask(data: TaskData): string {
  switch (data.kind) {
    case "render":
      return `render of ${data.requestId}`;
    case "plan":
      return `plan of ${data.requestId}`;
    case "chunk":
      return `chunk ${data.index + 1}/${data.count} of ${data.requestId} (frames ${data.frames.start}-${data.frames.end - 1})`;
    case "assemble":
      return `assembly of ${data.requestId} (${data.count} chunks)`;
  }
}

/** The output's path on this machine: a plain name inside the shared outputs directory. */
export function outputFile(outputsDir: string, name: string): string {
  if (!isOutputName(name)) throw new RenderError("invalid-composition", `the output name ${name} is not a plain file name`);
  return join(outputsDir, name);
}

async function compositionFile(context: TaskContext, composition: string): Promise<string> {
  try {
    return await resolveProjectComposition(context.projectsDir, composition);
  } catch (error) {
    if (error instanceof CompositionPathError) throw new RenderError("invalid-composition", `composition ${error.message} (in this worker's --projects)`);
    throw error;
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The plan task: the composition loaded and planned once, one range per chunk, its audio mixed
 * into the chunk directory; the plan stored there (written whole, then renamed into place) and
 * its hash returned for the tasks that follow.
 */
async function planRequest(request: RenderJobData, context: TaskContext, chunkSize: number, hooks: RenderHooks): Promise<PlanResult> {
  const composition = await compositionFile(context, request.composition);
  const chunks = chunkDirectory(context.outputsDir, request.requestId);
  await mkdir(chunks, { recursive: true });
  const { plan } = await planChunks(
    {
      composition,
      options: request.options,
      ...context.renderSettings,
      chunkSize,
      root: context.outputsDir,
      workDir: relative(context.outputsDir, chunks),
      output: request.outputName,
    },
    hooks,
  );
  const text = planToJson(plan);
  const file = planFile(chunks);
  await writeFile(`${file}.partial`, text);
  await rename(`${file}.partial`, file);
  const {
    composition: { width, height },
    totalFrames,
    durationSeconds,
  } = plan;
  return { hash: sha256(text), ranges: [...plan.ranges], totalFrames, durationSeconds, width, height };
}

/**
 * The request's stored plan, if its bytes have the hash the task was given: a chunk renders the
 * plan its request made and no other (one written over after the plan task, or by anyone else,
 * is refused as invalid-job and not retried).
 */
async function storedPlan(context: TaskContext, requestId: string, hash: string): Promise<RenderPlan> {
  const text = await readFile(planFile(chunkDirectory(context.outputsDir, requestId)), "utf8");
  if (sha256(text) !== hash) {
    throw new UnrecoverableError(
      encodeFailure("invalid-job", `the stored plan of request ${requestId} does not have the hash its tasks were given: it changed after it was made`),
    );
  }
  return planFromJson(text);
}

/** Captures and encodes one range of the plan into its part in the chunk directory. */
async function renderChunk(request: RenderJobData, context: TaskContext, plan: RenderPlan, index: number, hooks: RenderHooks): Promise<RenderFinishedEvent> {
  const composition = await compositionFile(context, request.composition);
  return renderRange({ composition, options: request.options, ...context.renderSettings, plan, root: context.outputsDir, index }, hooks);
}

/**
 * Checks every part by decoding it before the join: a part that does not hold its frames (cut
 * short, damaged on the shared storage after its task ended) is rendered again here from the
 * plan, once, and a part still wrong after that fails the request with a line saying what it holds.
 */
async function checkChunks(request: RenderJobData, context: TaskContext, plan: RenderPlan, hooks: RenderHooks): Promise<void> {
  const { format, fps } = plan.encode;
  const parts = plan.assemble?.parts ?? [];
  for (const [index, range] of plan.ranges.entries()) {
    const frames = range.end - range.start;
    const file = join(context.outputsDir, parts[index]!);
    const expected = { format, frames, fps, audio: false };
    const problem = await outputProblem(file, expected, "frames", hooks.signal);
    if (!problem) continue;
    await renderChunk(request, context, plan, index, hooks);
    const again = await outputProblem(file, expected, "frames", hooks.signal);
    if (again) {
      throw new RenderError(
        "encode-failed",
        `chunk ${index + 1}/${plan.ranges.length} (frames ${range.start}-${range.end - 1}) is wrong: ${problem}; rendered again, ${again}`,
      );
    }
  }
}

/**
 * Runs one task with @compose/renderer, reading the project from the shared projects directory
 * and writing into the shared outputs directory: a whole render; the plan (made once, stored with
 * its hash, the audio mixed for the whole); a chunk (one range of that plan, captured and encoded
 * without planning again); or the assembly (each part checked, then assembled and committed as
 * render() does). Failures are RenderErrors, as render()'s.
 */
export async function runTask(job: Job<TaskData>, request: RenderJobData, context: TaskContext, signal: AbortSignal): Promise<TaskResult> {
  const data = job.data;
  const relay = new EventRelay(job);
  const hooks = { onEvent: relay.send, signal };
  try {
    switch (data.kind) {
      case "render": {
        const composition = await compositionFile(context, request.composition);
        const output = outputFile(context.outputsDir, request.outputName);
        return await render({ composition, output, options: request.options, ...context.renderSettings }, hooks);
      }
      case "plan":
        return await planRequest(request, context, request.chunkSize ?? Number.MAX_SAFE_INTEGER, hooks);
      case "chunk": {
        const plan = await storedPlan(context, data.requestId, data.planHash);
        const range = plan.ranges[data.index];
        if (range?.start !== data.frames.start || range.end !== data.frames.end) {
          throw new UnrecoverableError(
            encodeFailure(
              "invalid-job",
              `chunk ${data.index + 1} of request ${data.requestId} names frames ${data.frames.start}-${data.frames.end - 1}, which are not a range of its plan`,
            ),
          );
        }
        return await renderChunk(request, context, plan, data.index, hooks);
      }
      case "assemble": {
        const plan = await storedPlan(context, data.requestId, data.planHash);
        // A re-rendered chunk's events are not the request's: its capture was counted already.
        await checkChunks(request, context, plan, { signal });
        const joined = await assembleChunks({ plan, root: context.outputsDir, signal });
        await rm(chunkDirectory(context.outputsDir, data.requestId), { recursive: true, force: true });
        return joined;
      }
    }
  } finally {
    await relay.settle();
  }
}
