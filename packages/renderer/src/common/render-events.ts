import type { FrameStats } from "@compose/core";

export type {
  RenderEvent,
  RenderStartedEvent,
  RenderProgressEvent,
  RenderWarningEvent,
  RenderFinishedEvent,
  RenderFailedEvent,
  FrameStats,
  HistoryPath,
} from "@compose/core";

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

export { RENDER_EVENT_TYPES } from "@compose/core";
