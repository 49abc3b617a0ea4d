import { render, RenderError, type RenderEvent, type RenderRequest } from "@compose/renderer";
import type { RenderJob } from "./render-job.js";

/** Renderer settings that come from the machine rather than from a request. */
export type RenderSettings = Pick<RenderRequest, "captureMode" | "readyTimeoutMs" | "limits" | "network">;

/**
 * Runs one job to its end and records the outcome on it. It never rejects: a failed render is
 * a job state, not an error of the queue that ran it.
 */
export type JobExecutor = (job: RenderJob, signal: AbortSignal) => Promise<void>;

/**
 * The executor of this process: @compose/renderer's render(), the same call the CLI makes, or
 * `run` in its place (the preview is handed render() when it starts).
 */
export function renderExecutor(settings: RenderSettings, run: typeof render = render): JobExecutor {
  return async (job, signal) => {
    const { file, output, options, instances } = job.spec;
    // The job hears render()'s last event once the render has cleaned up (its browsers closed, a
    // failed render's partial output removed), so a client told it has ended finds it so.
    const onEvent = (event: RenderEvent) => {
      if (event.type !== "finished" && event.type !== "failed") job.record(event);
    };
    try {
      job.record(await run({ composition: file, output, options, instances, ...settings }, { onEvent, signal }));
    } catch (error) {
      // render() turns every failure into a RenderError; anything else is a bug worth naming.
      if (error instanceof RenderError) job.fail(error.code, error.message, error.problems);
      else job.fail("internal-error", error instanceof Error ? error.message : String(error));
    }
  };
}
