import type { DurationSource, OutputFormat, QualityName } from "@compose/core";

export interface RenderStartedEvent {
  type: "started";
  composition: string;
  output: string;
  format: OutputFormat;
  fps: number;
  quality: QualityName;
  width: number;
  height: number;
  durationSeconds: number;
  /** Which part of the duration rule gave the composition's duration. */
  durationSource: DurationSource;
  totalFrames: number;
  workers: number;
  captureMode: "beginframe" | "screenshot";
}

export interface RenderProgressEvent {
  type: "progress";
  stage: "capture" | "assemble";
  /** Frames captured so far. */
  frame: number;
  totalFrames: number;
  percent: number;
  /** Frames per second since capture began. */
  framesPerSecond: number;
}

export interface RenderWarningEvent {
  type: "warning";
  code: string;
  message: string;
  /**
   * Set on the one warning that counts the warnings of `code` past the first ten, which are not
   * sent: how many there were ("and 14,990 more undeclared keys").
   */
  more?: number;
}

/** Where the time of one page's frames went, for the benchmark and the finished event. */
export interface FrameStats {
  frames: number;
  /** Frames whose image was reused because the seek changed nothing. */
  reused: number;
  seekMs: number;
  captureMs: number;
  /** Frames played without capture to give a page that starts after frame 0 its history. */
  replayedFrames: number;
  replayMs: number;
}

/** Where the time of several pages' frames went, together (the workers of a render, the chunks of a distributed one). */
export function sumFrameStats(stats: readonly FrameStats[]): FrameStats {
  return stats.reduce<FrameStats>(
    (sum, each) => ({
      frames: sum.frames + each.frames,
      reused: sum.reused + each.reused,
      seekMs: sum.seekMs + each.seekMs,
      captureMs: sum.captureMs + each.captureMs,
      replayedFrames: sum.replayedFrames + each.replayedFrames,
      replayMs: sum.replayMs + each.replayMs,
    }),
    { frames: 0, reused: 0, seekMs: 0, captureMs: 0, replayedFrames: 0, replayMs: 0 },
  );
}

export type HistoryPath = "replay" | "skip";

export interface RenderFinishedEvent {
  type: "finished";
  output: string;
  format: OutputFormat;
  durationSeconds: number;
  width: number;
  height: number;
  frames: number;
  sizeBytes: number;
  /** Time spent seeking and capturing (encoding runs alongside). */
  captureMs: number;
  /** Time from the request to the committed output. */
  elapsedMs: number;
  /**
   * Where capture time went, summed over workers: seeking, capturing, frames reused unchanged,
   * and frames replayed without capture for history.
   */
  stats: FrameStats;
  /**
   * How pages that start after frame 0 got there (one history, docs/compositions.md): "replay"
   * when the composition's state builds up from frame to frame, so they played every frame
   * before their first; "skip" when its state is a function of time, so they went straight there.
   */
  history: HistoryPath;
}

export interface RenderFailedEvent {
  type: "failed";
  code: string;
  message: string;
  /**
   * What went wrong, in the order it did, each with its code: the first is the cause (a script
   * that failed to load), the ones after may follow from it (`gsap is not defined`). One entry,
   * the failure itself, when it has a single cause.
   */
  problems: Array<{ code: string; message: string }>;
}

export type RenderEvent =
  | RenderStartedEvent
  | RenderProgressEvent
  | RenderWarningEvent
  | RenderFinishedEvent
  | RenderFailedEvent;

/** Every renderer event's `type`, at run time: what clients and docs may name. */
export const RENDER_EVENT_TYPES = ["started", "progress", "warning", "finished", "failed"] as const;

// A type added to RenderEvent without a place in RENDER_EVENT_TYPES fails to compile here.
const everyTypeListed: Exclude<RenderEvent["type"], (typeof RENDER_EVENT_TYPES)[number]> extends never ? true : never = true;
void everyTypeListed;
