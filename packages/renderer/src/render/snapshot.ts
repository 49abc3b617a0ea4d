import { writeFile } from "node:fs/promises";
import { FOLDER_FORMAT, frameCount, MAX_SNAPSHOT_MOMENTS, momentLabel, QUALITY_PRESETS, type SnapshotOutput } from "@compose/core";
import { loadComposition, type LoadRequest } from "../1-load/load-composition.js";
import { DEFAULT_READY_TIMEOUT_MS } from "../1-load/open-pages.js";
import { captureMoments } from "../3-capture/capture-moments.js";
import { encoderSink } from "../4-encode/encoder-sink.js";
import { frameImageFormat } from "../common/frame-image.js";
import { frameTime } from "../common/frame-ranges.js";
import { optionNamer } from "../common/option-naming.js";
import { RenderError } from "../common/render-error.js";
import { checkOutputPath } from "../output/check-output-path.js";
import { stageFile, stageOutput } from "../output/staged-output.js";
import { captureHtml } from "../page/html-capture.js";
import { sheetHtml, sheetLayout } from "./contact-sheet.js";
import { withRenderContext, type RenderContext, type RenderHooks } from "./render-context.js";

/** What snapshot() is asked: the composition and how to load it, which moments, and where they go. */
export interface SnapshotRequest extends LoadRequest {
  /** Times in seconds, each taken at its nearest frame (as a render's --time); or `count` frames spread evenly from the first to the last. */
  moments: { times: readonly number[] } | { count: number };
  /** One contact sheet (a PNG file), or a directory the frames are written to as a png-sequence's frames are, named by frame number. */
  output: { sheet: string } | { framesDir: string };
}

function invalidMoments(message: string): RenderError {
  return new RenderError("invalid-frames", message);
}

/** The frames of the moments asked for, ascending and each once. */
function momentFrames(moments: SnapshotRequest["moments"], composition: { id: string; duration: number }, fps: number): number[] {
  const last = frameCount(composition.duration, fps) - 1;
  const asked = "count" in moments ? moments.count : moments.times.length;
  if (!Number.isInteger(asked) || asked < 1 || asked > MAX_SNAPSHOT_MOMENTS) {
    throw invalidMoments(`a snapshot takes 1 to ${MAX_SNAPSHOT_MOMENTS} moments (got ${asked})`);
  }
  const frames =
    "count" in moments
      ? Array.from({ length: moments.count }, (_, i) => (moments.count === 1 ? 0 : Math.round((i * last) / (moments.count - 1))))
      : moments.times.map((time) => {
          if (!Number.isFinite(time) || time < 0) throw invalidMoments(`a moment must be a time in seconds, 0 or more (got ${time})`);
          const frame = Math.round(time * fps);
          if (frame > last) {
            throw invalidMoments(
              `the moment at ${time} s is past the end of composition "${composition.id}", which lasts ${composition.duration} s (its last frame is ${last}, at ${frameTime(last, fps).toFixed(3)} s at ${fps} fps)`,
            );
          }
          return frame;
        });
  return [...new Set(frames)].sort((a, b) => a - b);
}

/**
 * Captures moments of a composition as a render captures its frames (one page loaded as render
 * loads it, the same fonts, network and checks; each moment one seek and one capture) and writes
 * them as one contact sheet, drawn in the same browser, or as frame files.
 */
export function snapshot(request: SnapshotRequest, hooks: RenderHooks = {}): Promise<SnapshotOutput> {
  return withRenderContext(hooks, (context) => takeSnapshot(request, context));
}

async function takeSnapshot(request: SnapshotRequest, context: RenderContext): Promise<SnapshotOutput> {
  const options = { ...request.options, format: FOLDER_FORMAT };
  const sheet = "sheet" in request.output;
  const output = "sheet" in request.output ? request.output.sheet : request.output.framesDir;
  await checkOutputPath(output, FOLDER_FORMAT, sheet, optionNamer(request), options.replaceOutput);

  const loaded = await loadComposition({ ...request, options, still: true }, context);
  const { fps } = options;
  const frames = momentFrames(request.moments, { id: loaded.source.id, duration: loaded.info.duration }, fps);
  const settings = { image: frameImageFormat(FOLDER_FORMAT), jpegQuality: QUALITY_PRESETS[options.quality].jpegQuality, reuseFrames: true };
  const images = await captureMoments(loaded.firstPage, frames, fps, settings, context.signal);
  const moments = frames.map((frame) => ({ time: frameTime(frame, fps), frame }));

  if (sheet) {
    const layout = sheetLayout(images.length, loaded.source);
    const html = sheetHtml(
      images.map((image, i) => ({ image, label: momentLabel(moments[i]!) })),
      layout,
    );
    const png = await captureHtml(loaded.firstPage.context, html, layout, loaded.mode, request.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
    const staged = await stageFile(output);
    context.cleanups.push(() => staged.discard());
    await writeFile(staged.path, png);
    await staged.commit();
  } else {
    // Each frame through the encoder a render's png-sequence goes through, so its file is the one `render --frame` writes.
    const staged = await stageOutput(output, FOLDER_FORMAT, false);
    context.cleanups.push(() => staged.discard());
    const encode = { format: FOLDER_FORMAT, fps, width: loaded.source.width, height: loaded.source.height, quality: options.quality };
    for (const [i, frame] of frames.entries()) {
      const sink = encoderSink(encode, { kind: "sequence", directory: staged.path, firstFrame: frame }, 1);
      try {
        await sink.take({ kind: "image", data: images[i]! });
        await sink.finish();
      } catch (error) {
        sink.kill();
        throw error;
      }
    }
    await staged.commit();
  }
  return { output, moments };
}
