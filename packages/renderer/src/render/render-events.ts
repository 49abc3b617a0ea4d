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
}

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
  /** Where capture time went, summed over workers: seeking, capturing, and frames reused unchanged. */
  stats: { frames: number; reused: number; seekMs: number; captureMs: number };
}

export interface RenderFailedEvent {
  type: "failed";
  code: string;
  message: string;
}

export type RenderEvent =
  | RenderStartedEvent
  | RenderProgressEvent
  | RenderWarningEvent
  | RenderFinishedEvent
  | RenderFailedEvent;
