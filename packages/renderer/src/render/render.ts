import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { assembleOutput } from "../5-assemble/assemble-output.js";
import { warnOnFlatFrames } from "../5-assemble/flat-frames.js";
import { gainEnvelopes, mixAudio } from "../5-assemble/mix-audio.js";
import { captureFrames } from "../3-capture/capture-frames.js";
import { ProgressMeter } from "../3-capture/progress-meter.js";
import { warnOnStillness } from "../3-capture/stillness.js";
import type { RenderFinishedEvent } from "@compose/core";
import { optionNamer } from "../common/option-naming.js";
import { openEncoders } from "../4-encode/open-encoders.js";
import { loadComposition, type LoadRequest } from "../1-load/load-composition.js";
import { withRenderContext, type RenderContext, type RenderHooks } from "./render-context.js";
import { endRender, pageReports } from "./end-render.js";
import { checkOutputPath } from "../output/check-output-path.js";
import { ownedTempDir, RENDER_TEMP } from "../output/owned-temp.js";
import { stageOutput } from "../output/staged-output.js";
import { isStill, makePlan, type PlanRequest } from "../2-plan/make-plan.js";
import type { RenderPlan } from "../2-plan/render-plan.js";
import type { RowFrames } from "../3-capture/shared-frames.js";

/** What render() is asked: the composition and how to load it, what to plan, and where the output goes. */
export interface RenderRequest extends LoadRequest, PlanRequest {
  /** The output file, or directory for png-sequence. */
  output: string;
}

export type { RenderHooks };

/** Renders a composition to a file: the one entry point of the CLI and the producer server. */
export function render(request: RenderRequest, hooks: RenderHooks = {}): Promise<RenderFinishedEvent> {
  return withRenderContext(hooks, async (context) => {
    const finished = await runRender(request, context, hooks.sharedFrames);
    context.emit(finished);
    return finished;
  });
}

/**
 * The stages in order: load the composition, plan the render, capture frames into encoders
 * started beforehand (the audio mixing alongside), assemble, commit.
 */
async function runRender(request: RenderRequest, context: RenderContext, sharedFrames: RowFrames | undefined): Promise<RenderFinishedEvent> {
  const startedAt = Date.now();
  const { options } = request;
  const { emit, signal } = context;
  const still = isStill(request);
  await checkOutputPath(request.output, options.format, still, optionNamer(request), options.replaceOutput);

  const loaded = await loadComposition(request, context);
  const workDir = await ownedTempDir(tmpdir(), RENDER_TEMP);
  context.cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const staged = await stageOutput(request.output, options.format, still);
  context.cleanups.push(() => staged.discard());
  const plan = await makePlan(request, loaded, { output: request.output, stagedPath: staged.path, workDir }, emit);
  emitStarted(plan, emit);

  const pages = [loaded.firstPage, ...(await loaded.openMorePages(plan.ranges.length - 1))];
  const sinks = openEncoders(plan);
  // The mix needs no frames, so it runs while the browsers capture; a volume that scripts change
  // over time is known only once every frame was seeked, and then the mix is made again.
  const mixing = plan.audio ? mixAudio(plan.audio, undefined, signal) : Promise.resolve();
  mixing.catch(() => undefined);
  const meter = new ProgressMeter(plan.totalFrames, emit);
  await captureFrames(plan, pages, sinks, meter, signal, sharedFrames);
  warnOnStillness(
    pages.map((page) => page.stats),
    loaded.info,
    emit,
  );
  const envelopes = plan.audio ? await gainEnvelopes(pages, plan.audio) : undefined;
  // Nothing more is asked of the pages: their browsers close while the output is finished (the
  // render's release waits for them).
  void context.pool.closeAll();

  await mixing;
  if (plan.audio && envelopes) await mixAudio(plan.audio, envelopes, signal);
  if (plan.assemble) {
    meter.assembling();
    await assembleOutput(plan.assemble, signal);
  }
  const expected = { format: options.format, frames: plan.totalFrames, fps: plan.fps, audio: plan.audio !== undefined, still };
  return endRender(
    {
      output: request.output,
      commit: {
        staged,
        expected,
        // A slice (a chunk of a distributed render) may well be one colour where the whole is not.
        whenCommitted: plan.output.whole ? () => warnOnFlatFrames(request.output, options.format, loaded.info, emit, signal) : undefined,
      },
      format: options.format,
      width: plan.frameSize.width,
      height: plan.frameSize.height,
      frames: plan.totalFrames,
      durationSeconds: plan.durationSeconds,
      startedAt,
      captureMs: meter.captureMs(),
      captures: pageReports(pages),
    },
    signal,
  );
}

export function emitStarted(plan: RenderPlan, emit: RenderContext["emit"]): void {
  emit({
    type: "started",
    composition: plan.composition.id,
    output: plan.output.path,
    format: plan.output.format,
    fps: plan.fps,
    quality: plan.encode.quality,
    width: plan.frameSize.width,
    height: plan.frameSize.height,
    durationSeconds: plan.durationSeconds,
    durationSource: plan.durationSource,
    totalFrames: plan.totalFrames,
    workers: plan.ranges.length,
    captureMode: plan.capture.mode,
  });
}
