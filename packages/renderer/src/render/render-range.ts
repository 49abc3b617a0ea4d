import { captureFrames } from "../3-capture/capture-frames.js";
import { ProgressMeter } from "../3-capture/progress-meter.js";
import type { RenderFinishedEvent } from "@compose/core";
import { RenderError } from "../common/render-error.js";
import { openEncoders } from "../4-encode/open-encoders.js";
import { loadComposition, type LoadRequest } from "../1-load/load-composition.js";
import { withRenderContext, type RenderHooks } from "./render-context.js";
import { emitStarted } from "./render.js";
import { endRender, pageReports } from "./end-render.js";
import { stageOutput } from "../output/staged-output.js";
import { rebasePlan } from "../2-plan/rebase-plan.js";
import type { EncodeTarget, RenderPlan } from "../2-plan/render-plan.js";

/** What renderRange() is asked: the composition as planChunks() loaded it, its plan, and which range. */
export interface RangeRequest extends LoadRequest {
  /** A plan made by planChunks(), its files named relative to `root`. */
  plan: RenderPlan;
  /** This machine's view of the directory the plan's files are in. */
  root: string;
  /** Which of the plan's ranges to capture and encode. */
  index: number;
}

function retarget(target: EncodeTarget, path: string): EncodeTarget {
  return target.kind === "sequence" ? { ...target, directory: path } : { ...target, path };
}

/**
 * Captures and encodes exactly one range of a plan into its part, and plans nothing: the
 * composition is loaded (a page to seek) in the plan's capture mode, and the plan's frames,
 * capture and encoder settings are used as they are, whatever the composition says now. A
 * composition that changed size since it was planned is refused. The part is staged and renamed
 * into place, so a part that exists is whole.
 */
export function renderRange(request: RangeRequest, hooks: RenderHooks = {}): Promise<RenderFinishedEvent> {
  return withRenderContext(hooks, async (context) => {
    const startedAt = Date.now();
    const { emit, signal } = context;
    const plan = rebasePlan(request.plan, request.root);
    const range = plan.ranges[request.index];
    const target = plan.targets[request.index];
    if (!range || !target) throw new RenderError("invalid-frames", `the plan has ${plan.ranges.length} ranges, so no range ${request.index}`);
    const loaded = await loadComposition({ ...request, captureMode: plan.capture.mode }, context);
    const { composition } = plan;
    if (loaded.source.width !== composition.width || loaded.source.height !== composition.height) {
      throw new RenderError(
        "invalid-composition",
        `the composition is ${loaded.source.width}x${loaded.source.height} now, but its render was planned at ${composition.width}x${composition.height}: render it again`,
      );
    }
    const part = target.kind === "sequence" ? target.directory : target.path;
    const staged = await stageOutput(part, plan.output.format, false);
    context.cleanups.push(() => staged.discard());
    const slice = { ...plan, ranges: [range], targets: [retarget(target, staged.path)] };
    const frames = range.end - range.start;
    emitStarted({ ...slice, totalFrames: frames, durationSeconds: frames / plan.fps }, emit);
    const sinks = openEncoders(slice);
    const meter = new ProgressMeter(frames, emit);
    await captureFrames(slice, [loaded.firstPage], sinks, meter, signal);
    const finished = await endRender(
      {
        output: part,
        commit: { staged, expected: { format: plan.output.format, frames, fps: plan.fps, audio: false } },
        format: plan.output.format,
        width: plan.frameSize.width,
        height: plan.frameSize.height,
        frames,
        durationSeconds: frames / plan.fps,
        startedAt,
        captureMs: meter.captureMs(),
        captures: pageReports([loaded.firstPage]),
      },
      signal,
    );
    emit(finished);
    return finished;
  });
}
