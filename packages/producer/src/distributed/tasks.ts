import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Job } from "bullmq";
import { joinChunks, mixCompositionAudio, render, RenderError, type RenderEvent, type RenderFinishedEvent } from "@compose/renderer";
import type { RenderSettings } from "../jobs/render-executor.js";
import { CompositionPathError, resolveProjectComposition } from "../project/resolve-project-composition.js";
import {
  chunkAudioPath,
  chunkDirectory,
  chunkPath,
  isOutputName,
  type ChunkResult,
  type PlanResult,
  type ProgressData,
  type RenderJobData,
  type RenderResult,
  type TaskData,
} from "./protocol.js";

export interface TaskContext {
  /** This machine's view of the shared projects directory (a real path). */
  projectsDir: string;
  /** This machine's view of the shared outputs directory. */
  outputsDir: string;
  renderSettings: RenderSettings;
}

export type TaskResult = RenderResult | PlanResult | ChunkResult;

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

/** The renderer's progress and warnings, onto the task's job, in order; failures to report are not the render's. */
function progressReporter(job: Job): { onEvent: (event: RenderEvent) => void; settle: () => Promise<void> } {
  let chain = Promise.resolve();
  const send = (data: ProgressData) => {
    chain = chain.then(() => job.updateProgress(data)).catch(() => undefined);
  };
  return {
    onEvent(event) {
      if (event.type === "progress") {
        const { stage, frame, totalFrames, percent } = event;
        send({ type: "progress", stage, frame, totalFrames, percent });
      } else if (event.type === "warning") {
        send({ type: "warning", code: event.code, message: event.message });
      }
    },
    settle: () => chain,
  };
}

function resultOf(finished: RenderFinishedEvent): RenderResult {
  const { format, durationSeconds, width, height, frames, sizeBytes, history } = finished;
  return { format, durationSeconds, width, height, frames, sizeBytes, history };
}

function outputFile(context: TaskContext, name: string): string {
  if (!isOutputName(name)) throw new RenderError("invalid-composition", `the output name ${name} is not a plain file name`);
  return join(context.outputsDir, name);
}

async function compositionFile(context: TaskContext, composition: string): Promise<string> {
  try {
    return await resolveProjectComposition(context.projectsDir, composition);
  } catch (error) {
    if (error instanceof CompositionPathError) throw new RenderError("invalid-composition", `composition ${error.message} (in this worker's --projects)`);
    throw error;
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
  const reporter = progressReporter(job);
  const hooks = { onEvent: reporter.onEvent, signal };
  try {
    switch (data.kind) {
      case "render": {
        const composition = await compositionFile(context, request.composition);
        const output = outputFile(context, request.outputName);
        return resultOf(await render({ composition, output, options, ...context.renderSettings }, hooks));
      }
      case "plan": {
        const composition = await compositionFile(context, request.composition);
        await mkdir(chunks, { recursive: true });
        const mixed = await mixCompositionAudio({ composition, options, output: chunkAudioPath(chunks, options.format), ...context.renderSettings }, hooks);
        const { totalFrames, durationSeconds, width, height } = mixed;
        return { totalFrames, durationSeconds, width, height, audio: mixed.audioFile !== undefined };
      }
      case "chunk": {
        const composition = await compositionFile(context, request.composition);
        await mkdir(chunks, { recursive: true });
        const output = chunkPath(chunks, data.index, options.format);
        const finished = await render({ composition, output, options, frames: data.frames, audio: false, ...context.renderSettings }, hooks);
        return { frames: finished.frames, history: finished.history };
      }
      case "assemble": {
        const output = outputFile(context, request.outputName);
        const files = Array.from({ length: data.count }, (_, index) => chunkPath(chunks, index, options.format));
        const joined = await joinChunks({
          chunks: files,
          format: options.format,
          output,
          audioFile: data.audio ? chunkAudioPath(chunks, options.format) : undefined,
          signal,
        });
        await rm(chunks, { recursive: true, force: true });
        return { ...data.facts, sizeBytes: joined.sizeBytes };
      }
    }
  } finally {
    await reporter.settle();
  }
}
