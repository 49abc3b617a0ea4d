import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import {
  frameCount,
  resolveWorkerCount,
  TRANSPARENT_FORMATS,
  validateVariableValues,
  type OutputFormat,
  type RenderOptions,
} from "@compose/core";
import { BrowserPool } from "../browser/browser-pool.js";
import { openCompositionPage, type CompositionPage } from "../browser/composition-page.js";
import type { CaptureMode } from "../capture/frame-capturer.js";
import { loadComposition, type LoadedComposition } from "../composition/load-composition.js";
import { concatArgs, frameImageFormat, type EncodeSettings } from "../encode/encoder-args.js";
import { runFfmpeg } from "../encode/ffmpeg-process.js";
import { encoderSink, type FrameSink } from "../encode/frame-sink.js";
import { stageDirectory, stageFile, type StagedOutput } from "../output/staged-output.js";
import { serveProject } from "../serve/project-server.js";
import { frameTime, splitFrames, type FrameRange } from "../plan/frame-ranges.js";
import type { RenderEvent, RenderFinishedEvent } from "./render-events.js";
import { cancelledError, RenderError, throwIfAborted } from "./render-error.js";
import { ProgressMeter } from "./progress-meter.js";
import { unsupportedOptionProblems } from "./unsupported-options.js";

export interface RenderRequest {
  /** The composition's HTML file. */
  composition: string;
  /** The output file, or directory for png-sequence. */
  output: string;
  /** Validated options (validateRenderOptions in @compose/core). */
  options: RenderOptions;
  /** How frames are taken from the browser; BeginFrame unless the browser cannot do it. */
  captureMode?: CaptureMode;
  /** How long a page may take to load and become ready. */
  readyTimeoutMs?: number;
  /** Render only these composition frames (end exclusive), e.g. a short slice to measure speed. */
  frames?: { start: number; end: number };
}

export interface RenderHooks {
  onEvent?: (event: RenderEvent) => void;
  signal?: AbortSignal;
}

const DEFAULT_READY_TIMEOUT_MS = 30_000;

/** Renders a composition to a file: the one entry point of the CLI and the producer server. */
export async function render(request: RenderRequest, hooks: RenderHooks = {}): Promise<RenderFinishedEvent> {
  const emit = hooks.onEvent ?? (() => undefined);
  const pool = new BrowserPool();
  const cleanups: Array<() => Promise<void> | void> = [];
  const onAbort = () => pool.killAll();
  hooks.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const finished = await runRender(request, emit, pool, cleanups, hooks.signal);
    emit(finished);
    return finished;
  } catch (error) {
    const failure = explainFailure(error, pool, hooks.signal);
    emit({ type: "failed", code: failure.code, message: failure.message });
    throw failure;
  } finally {
    hooks.signal?.removeEventListener("abort", onAbort);
    await pool.closeAll();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

function explainFailure(error: unknown, pool: BrowserPool, signal: AbortSignal | undefined): RenderError {
  if (signal?.aborted) return cancelledError();
  if (error instanceof RenderError) return error;
  if (pool.crashed) return new RenderError("browser-crashed", "the browser exited unexpectedly during the render");
  const message = error instanceof Error ? error.message : String(error);
  return new RenderError("encode-failed", message.split("\n")[0] ?? message);
}

function checkVariables(composition: LoadedComposition, options: RenderOptions, emit: (event: RenderEvent) => void): void {
  const issues = validateVariableValues(composition.metadata.variables, options.variables ?? {});
  if (issues.length === 0) return;
  if (options.strictVariables) {
    const list = issues.map((issue) => `${issue.code}: ${issue.message}`).join("; ");
    throw new RenderError("invalid-variables", `variables refused by --strict-variables: ${list}`);
  }
  for (const issue of issues) emit({ type: "warning", code: issue.code, message: issue.message });
}

function checkDimensions(composition: LoadedComposition, options: RenderOptions): void {
  const subsampled = options.format === "mp4" || options.format === "webm";
  if (subsampled && (composition.width % 2 !== 0 || composition.height % 2 !== 0)) {
    throw new RenderError(
      "invalid-composition",
      `${options.format} needs an even width and height, but ${composition.id} is ${composition.width}x${composition.height}: change data-width / data-height or use --format mov or png-sequence`,
    );
  }
}

async function openPagesIn(
  mode: CaptureMode,
  request: RenderRequest,
  composition: LoadedComposition,
  workers: number,
  pool: BrowserPool,
  baseUrl: string,
): Promise<CompositionPage[]> {
  const { options } = request;
  const browsers = await pool.launch(workers, {
    beginFrameControl: mode === "beginframe",
    gpu: options.browserGpu ?? !options.docker,
  });
  return Promise.all(
    browsers.map((browser) =>
      openCompositionPage(browser, {
        url: baseUrl + encodeURIComponent(basename(composition.file)),
        width: composition.width,
        height: composition.height,
        transparent: TRANSPARENT_FORMATS.includes(options.format),
        captureMode: mode,
        image: frameImageFormat(options.format),
        boot: { variables: options.variables ?? {} },
        readyTimeoutMs: request.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      }),
    ),
  );
}

/** The requested frames within the composition's, never empty. */
function sliceFrames(compositionFrames: number, requested: RenderRequest["frames"]): FrameRange {
  if (!requested) return { start: 0, end: compositionFrames };
  const start = Math.min(Math.max(0, Math.floor(requested.start)), compositionFrames - 1);
  const end = Math.max(start + 1, Math.min(compositionFrames, Math.floor(requested.end)));
  return { start, end };
}

/** True when the browser lacks BeginFrame control (not the headless shell), so screenshots must do. */
function beginFrameUnsupported(error: unknown): boolean {
  return !(error instanceof RenderError) && /HeadlessExperimental|BeginFrame/i.test(String(error));
}

async function openPages(
  request: RenderRequest,
  composition: LoadedComposition,
  workers: number,
  pool: BrowserPool,
  baseUrl: string,
  emit: (event: RenderEvent) => void,
): Promise<{ pages: CompositionPage[]; mode: CaptureMode }> {
  const mode = request.captureMode ?? "beginframe";
  try {
    return { pages: await openPagesIn(mode, request, composition, workers, pool, baseUrl), mode };
  } catch (error) {
    if (mode !== "beginframe" || request.captureMode || !beginFrameUnsupported(error)) throw error;
    await pool.closeAll();
    emit({
      type: "warning",
      code: "screenshot-capture",
      message: "this browser has no BeginFrame control (use chromium-headless-shell); capturing with screenshots, which is slower",
    });
    return { pages: await openPagesIn("screenshot", request, composition, workers, pool, baseUrl), mode: "screenshot" };
  }
}

async function captureRange(
  page: CompositionPage,
  range: FrameRange,
  firstFrame: number,
  fps: number,
  sink: FrameSink,
  meter: ProgressMeter,
  signal: AbortSignal | undefined,
): Promise<void> {
  for (let frame = range.start; frame < range.end; frame++) {
    throwIfAborted(signal);
    await sink.write(await page.frameAt(frameTime(firstFrame + frame, fps)));
    meter.frameDone();
  }
  await sink.finish();
}

async function runRender(
  request: RenderRequest,
  emit: (event: RenderEvent) => void,
  pool: BrowserPool,
  cleanups: Array<() => Promise<void> | void>,
  signal: AbortSignal | undefined,
): Promise<RenderFinishedEvent> {
  const startedAt = Date.now();
  const { options } = request;
  throwIfAborted(signal);
  for (const problem of unsupportedOptionProblems(options)) {
    if (problem.fatal) throw new RenderError("invalid-composition", problem.message);
    emit({ type: "warning", code: problem.code, message: problem.message });
  }
  const composition = await loadComposition(request.composition);
  checkVariables(composition, options, emit);
  checkDimensions(composition, options);

  const server = await serveProject(dirname(composition.file));
  cleanups.push(() => server.close());

  const workers = resolveWorkerCount(options.workers, availableParallelism());
  const { pages, mode } = await openPages(request, composition, workers, pool, server.baseUrl, emit);
  const { info } = pages[0]!;
  if (info.duration === undefined) {
    throw new RenderError(
      "invalid-composition",
      `${composition.id} has no known duration: set data-duration on the composition element or on its clips`,
    );
  }
  if (TRANSPARENT_FORMATS.includes(options.format) && info.paintedBackgrounds.length > 0) {
    emit({
      type: "warning",
      code: "opaque-background",
      message: `${options.format} keeps transparency, but ${info.paintedBackgrounds.join(", ")} set${info.paintedBackgrounds.length === 1 ? "s" : ""} a background, so the output will not be transparent`,
    });
  }
  for (const timingError of info.timingErrors) {
    emit({ type: "warning", code: timingError.code, message: timingError.message });
  }
  const slice = sliceFrames(frameCount(info.duration, options.fps), request.frames);
  const totalFrames = slice.end - slice.start;
  // Ranges count output frames from 0; output frame n is composition frame slice.start + n.
  const ranges = splitFrames(totalFrames, pages.length);

  emit({
    type: "started",
    composition: composition.id,
    output: request.output,
    format: options.format,
    fps: options.fps,
    quality: options.quality,
    width: composition.width,
    height: composition.height,
    durationSeconds: totalFrames / options.fps,
    totalFrames,
    workers: ranges.length,
    captureMode: mode,
  });

  const staged: StagedOutput =
    options.format === "png-sequence" ? await stageDirectory(request.output) : await stageFile(request.output);
  let committed = false;
  cleanups.push(async () => {
    if (!committed) await staged.discard();
  });

  const meter = new ProgressMeter(totalFrames, emit);
  const { sinks, chunks } = await createSinks(options, ranges, staged.path, cleanups);
  const killSinks = () => sinks.forEach((sink) => sink.kill());
  signal?.addEventListener("abort", killSinks, { once: true });
  try {
    await Promise.all(ranges.map((range, i) => captureRange(pages[i]!, range, slice.start, options.fps, sinks[i]!, meter, signal)));
  } catch (error) {
    killSinks();
    throw error;
  } finally {
    signal?.removeEventListener("abort", killSinks);
  }
  meter.finish();

  if (chunks) {
    meter.assembling();
    await joinChunks(chunks, options.format, staged.path, signal);
  }
  throwIfAborted(signal);
  await staged.commit();
  committed = true;

  return {
    type: "finished",
    output: request.output,
    format: options.format,
    durationSeconds: totalFrames / options.fps,
    width: composition.width,
    height: composition.height,
    frames: totalFrames,
    sizeBytes: await outputSize(request.output, options),
    captureMs: meter.captureMs(),
    elapsedMs: Date.now() - startedAt,
  };
}

async function createSinks(
  options: RenderOptions,
  ranges: FrameRange[],
  stagedPath: string,
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ sinks: FrameSink[]; chunks?: string[] }> {
  const settings: EncodeSettings = {
    format: options.format,
    fps: options.fps,
    quality: options.quality,
    crf: options.crf,
    videoBitrate: options.videoBitrate,
  };
  if (options.format === "png-sequence") {
    return { sinks: ranges.map((range) => encoderSink(settings, { kind: "sequence", directory: stagedPath, firstFrame: range.start })) };
  }
  if (ranges.length === 1) return { sinks: [encoderSink(settings, { kind: "file", path: stagedPath })] };
  const chunkDir = await mkdtemp(join(tmpdir(), "compose-chunks-"));
  cleanups.push(() => rm(chunkDir, { recursive: true, force: true }));
  // Each worker encodes its own chunk; chunks are joined without re-encoding.
  const chunks = ranges.map((_, i) => join(chunkDir, `chunk-${i}.${options.format}`));
  return { sinks: chunks.map((path) => encoderSink(settings, { kind: "chunk", path })), chunks };
}

async function joinChunks(files: string[], format: OutputFormat, output: string, signal?: AbortSignal): Promise<void> {
  const listFile = join(dirname(files[0]!), "chunks.txt");
  await writeFile(listFile, files.map((file) => `file '${file.replaceAll("'", "'\\''")}'`).join("\n") + "\n");
  await runFfmpeg(concatArgs(listFile, format, output), signal);
}

async function outputSize(output: string, options: RenderOptions): Promise<number> {
  if (options.format !== "png-sequence") return (await stat(output)).size;
  const names = await readdir(output);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(output, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}
