import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Job } from "bullmq";
import { chunkProblem, joinChunks, mixCompositionAudio, render, RenderError, type FrameRange, type JoinedOutput, type RenderFinishedEvent, type RenderHooks } from "@compose/renderer";
import type { RenderSettings } from "../jobs/render-executor.js";
import { CompositionPathError, resolveProjectComposition } from "../project/resolve-project-composition.js";
import { chunkRanges } from "./chunk-plan.js";
import { EventRelay } from "./event-relay.js";
import { chunkAudioPath, chunkDirectory, chunkPath, isOutputName, type PlanResult, type RenderJobData, type TaskData } from "./protocol.js";

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

/** Renders one chunk's frames, silent, into the chunk directory. */
async function renderChunk(request: RenderJobData, context: TaskContext, index: number, frames: FrameRange, hooks: RenderHooks): Promise<RenderFinishedEvent> {
  const composition = await compositionFile(context, request.composition);
  const chunks = chunkDirectory(context.outputsDir, request.requestId);
  await mkdir(chunks, { recursive: true });
  const output = chunkPath(chunks, index, request.options.format);
  return render({ composition, output, options: request.options, frames, audio: false, ...context.renderSettings }, hooks);
}

/**
 * Checks every chunk by decoding it before the join: a chunk that does not hold its frames (cut
 * short, damaged on the shared storage after its task ended) is rendered again here, once, and a
 * chunk still wrong after that fails the request with a line saying what it holds.
 */
async function checkChunks(request: RenderJobData, context: TaskContext, totalFrames: number, files: readonly string[], hooks: RenderHooks): Promise<void> {
  const { format, fps } = request.options;
  const ranges = chunkRanges(totalFrames, request.chunkSize ?? totalFrames);
  if (ranges.length !== files.length) throw new RenderError("internal-error", `the render has ${ranges.length} chunks, not ${files.length}`);
  for (const [index, range] of ranges.entries()) {
    const frames = range.end - range.start;
    const problem = await chunkProblem(files[index]!, format, frames, fps, hooks.signal);
    if (!problem) continue;
    await renderChunk(request, context, index, range, hooks);
    const again = await chunkProblem(files[index]!, format, frames, fps, hooks.signal);
    if (again) {
      throw new RenderError("encode-failed", `chunk ${index + 1}/${ranges.length} (frames ${range.start}-${range.end - 1}) is wrong: ${problem}; rendered again, ${again}`);
    }
  }
}

/**
 * Runs one task with @compose/renderer, reading the project from the shared projects directory
 * and writing into the shared outputs directory: a whole render, a plan (frame count and the
 * audio mixed for the whole composition), a chunk (a frame range, silent), or the assembly of the
 * chunks (joined without re-encoding, audio muxed in). Failures are RenderErrors, as render()'s.
 */
export async function runTask(job: Job<TaskData>, request: RenderJobData, context: TaskContext, signal: AbortSignal): Promise<TaskResult> {
  const data = job.data;
  const { options } = request;
  const chunks = chunkDirectory(context.outputsDir, data.requestId);
  const relay = new EventRelay(job);
  const hooks = { onEvent: relay.send, signal };
  try {
    switch (data.kind) {
      case "render": {
        const composition = await compositionFile(context, request.composition);
        const output = outputFile(context.outputsDir, request.outputName);
        return await render({ composition, output, options, ...context.renderSettings }, hooks);
      }
      case "plan": {
        const composition = await compositionFile(context, request.composition);
        await mkdir(chunks, { recursive: true });
        const mixed = await mixCompositionAudio({ composition, options, output: chunkAudioPath(chunks, options.format), ...context.renderSettings }, hooks);
        const { totalFrames, durationSeconds, width, height } = mixed;
        return { totalFrames, durationSeconds, width, height, audio: mixed.audioFile !== undefined };
      }
      case "chunk":
        return await renderChunk(request, context, data.index, data.frames, hooks);
      case "assemble": {
        const output = outputFile(context.outputsDir, request.outputName);
        const files = Array.from({ length: data.count }, (_, index) => chunkPath(chunks, index, options.format));
        // A re-rendered chunk's events are not the request's: its capture was counted already.
        await checkChunks(request, context, data.frames, files, { signal });
        const joined = await joinChunks({
          chunks: files,
          format: options.format,
          output,
          audioFile: data.audio ? chunkAudioPath(chunks, options.format) : undefined,
          signal,
        });
        await rm(chunks, { recursive: true, force: true });
        return joined;
      }
    }
  } finally {
    await relay.settle();
  }
}
