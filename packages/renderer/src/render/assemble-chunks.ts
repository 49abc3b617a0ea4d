import { assembleOutput } from "../5-assemble/assemble-output.js";
import { cancelledError, RenderError } from "../common/render-error.js";
import { commitOutput } from "./end-render.js";
import { stageOutput } from "../output/staged-output.js";
import { rebasePlan } from "../2-plan/rebase-plan.js";
import type { RenderPlan } from "../2-plan/render-plan.js";

export interface ChunksAssembly {
  /** A plan made by planChunks(), whose parts renderRange() has encoded. */
  plan: RenderPlan;
  /** This machine's view of the directory the plan's files are in. */
  root: string;
  signal?: AbortSignal | undefined;
}

export interface JoinedOutput {
  output: string;
  /** Bytes; for png-sequence, all files together. */
  sizeBytes: number;
}

/**
 * The output of a render split across machines, made as render() makes its own: staged beside its
 * path, the plan's parts and audio put together by the assemble stage, then committed as every
 * render's output is (commitOutput). The coordinator ends the render with it (endRender). The
 * parts are left for the caller to remove.
 */
export async function assembleChunks(request: ChunksAssembly): Promise<JoinedOutput> {
  const { signal } = request;
  const { assemble, output, totalFrames, fps } = rebasePlan(request.plan, request.root);
  if (!assemble) throw new RenderError("internal-error", "the plan has no parts to assemble: it was not made by planChunks");
  const staged = await stageOutput(output.path, output.format, false);
  try {
    await assembleOutput({ ...assemble, into: staged.path }, signal);
    const expected = { format: output.format, frames: totalFrames, fps, audio: assemble.audioFile !== undefined };
    return { output: output.path, sizeBytes: await commitOutput(output.path, { staged, expected }, signal) };
  } catch (error) {
    throw signal?.aborted ? cancelledError() : error;
  } finally {
    await staged.discard();
  }
}
