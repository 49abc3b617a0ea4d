import type { FrameStats, HistoryPath, OutputFormat, RenderFinishedEvent } from "@compose/core";
import type { CompositionPage } from "../page/composition-page.js";
import { throwIfAborted } from "../common/render-error.js";
import { commitWhenWhole, type OutputExpectation } from "../output/verify-output.js";
import type { StagedOutput } from "../output/staged-output.js";

/** What a page of this machine, or a chunk rendered elsewhere (its finished event), reports of the frames it captured. */
export interface CaptureReport {
  stats: FrameStats;
  history: HistoryPath;
}

/**
 * How a render's output is made final. Here: its staged output, read back and renamed into place
 * when it holds what is expected, else discarded; then `whenCommitted` checks the output in place. For a render split across machines: its assembly, which does the same on the machine
 * that assembles (assembleChunks), and resolves to the output's size.
 */
export type OutputCommit =
  { staged: StagedOutput; expected: OutputExpectation; whenCommitted?: (() => Promise<void>) | undefined } | { assembled: () => Promise<number> };

/** A render that has captured its frames, about to end. */
export interface RenderEnding {
  /** The output as the caller named it. */
  output: string;
  commit: OutputCommit;
  format: OutputFormat;
  width: number;
  height: number;
  frames: number;
  durationSeconds: number;
  /** When the render started (Date.now()), and how long its capture took. */
  startedAt: number;
  captureMs: number;
  captures: readonly CaptureReport[];
}

/** What the pages that captured report, for their render's ending. */
export function pageReports(pages: readonly CompositionPage[]): CaptureReport[] {
  return pages.map((page) => ({ stats: page.stats, history: page.needsHistory ? "replay" : "skip" }));
}

/** Where the time of several pages' frames went, together (the workers of a render, the chunks of a distributed one). */
function sumFrameStats(stats: readonly FrameStats[]): FrameStats {
  return stats.reduce<FrameStats>(
    (sum, each) => ({
      frames: sum.frames + each.frames,
      reused: sum.reused + each.reused,
      shared: sum.shared + each.shared,
      seekMs: sum.seekMs + each.seekMs,
      captureMs: sum.captureMs + each.captureMs,
      fingerprintMs: sum.fingerprintMs + each.fingerprintMs,
      replayedFrames: sum.replayedFrames + each.replayedFrames,
      replayMs: sum.replayMs + each.replayMs,
    }),
    { frames: 0, reused: 0, shared: 0, seekMs: 0, captureMs: 0, fingerprintMs: 0, replayedFrames: 0, replayMs: 0 },
  );
}

/**
 * Makes a render's output final (OutputCommit) and resolves to its size in bytes: endRender's
 * first step, and on the machine that assembles a render split across machines, assembleChunks'.
 */
export async function commitOutput(output: string, commit: OutputCommit, signal: AbortSignal | undefined): Promise<number> {
  if ("assembled" in commit) return commit.assembled();
  try {
    throwIfAborted(signal);
    const sizeBytes = await commitWhenWhole(commit.staged, output, commit.expected, signal);
    await commit.whenCommitted?.();
    return sizeBytes;
  } finally {
    await commit.staged.discard();
  }
}

/**
 * Ends every render, whether it ran here (render()), is one range of a plan (renderRange()) or
 * was split across machines (the producer's coordinator): the output made final, then the
 * `finished` event that reports it, the frame stats of every page or chunk summed.
 */
export async function endRender(ending: RenderEnding, signal?: AbortSignal): Promise<RenderFinishedEvent> {
  const sizeBytes = await commitOutput(ending.output, ending.commit, signal);
  return {
    type: "finished",
    output: ending.output,
    format: ending.format,
    durationSeconds: ending.durationSeconds,
    width: ending.width,
    height: ending.height,
    frames: ending.frames,
    sizeBytes,
    captureMs: ending.captureMs,
    elapsedMs: Date.now() - ending.startedAt,
    stats: sumFrameStats(ending.captures.map((capture) => capture.stats)),
    history: ending.captures.some((capture) => capture.history === "replay") ? "replay" : "skip",
  };
}
