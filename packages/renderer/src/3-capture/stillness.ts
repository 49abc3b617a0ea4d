import type { CompositionInfo } from "@compose/runtime";
import type { FrameStats, RenderEvent } from "@compose/core";

/**
 * Ends a render in which no frame changed, although the page defines animation that seeking does
 * not drive, with a warning naming it and the fix. A still composition without such animation is
 * a still by intent and says nothing.
 */
export function warnOnStillness(stats: readonly FrameStats[], info: CompositionInfo, emit: (event: RenderEvent) => void): void {
  const frames = stats.reduce((sum, page) => sum + page.frames, 0);
  const reused = stats.reduce((sum, page) => sum + page.reused, 0);
  // Each page captures its first frame; every later one was reused unchanged.
  if (!info.idleAnimation || frames <= stats.length || reused !== frames - stats.length) return;
  emit({ type: "warning", code: "no-change", message: `no frame changed in ${frames} frames: ${info.idleAnimation}` });
}
