import type { RenderEvent } from "@compose/core";

/**
 * A progress event for every whole percent, and between those at most this often: a short render
 * still reports each step and a stream to a slow client gets at most ~100 events plus ten a second.
 */
const INTERVAL_MS = 100;

/** Counts captured frames across workers and turns them into throttled progress events. */
export class ProgressMeter {
  private done = 0;
  private readonly startedAt = Date.now();
  private lastEmit = this.startedAt;
  private lastWholePercent = 0;
  private finishedAt: number | undefined;

  constructor(
    private readonly totalFrames: number,
    private readonly emit: (event: RenderEvent) => void,
  ) {}

  framesPerSecond(): number {
    const seconds = (Date.now() - this.startedAt) / 1000;
    return seconds > 0 ? this.done / seconds : 0;
  }

  frameDone(): void {
    this.advanceTo(this.done + 1);
  }

  /**
   * `frames` are done in all: for counts reported in batches (the chunks of a distributed render).
   * The count only grows, so a part that starts again does not move it back.
   */
  advanceTo(frames: number): void {
    if (frames <= this.done) return;
    this.done = frames;
    const now = Date.now();
    const wholePercent = Math.floor((this.done * 100) / this.totalFrames);
    if (wholePercent > this.lastWholePercent || now - this.lastEmit >= INTERVAL_MS) {
      this.lastEmit = now;
      this.lastWholePercent = wholePercent;
      this.send("capture");
    }
  }

  /** Capture is complete; the last frame's event has been sent, as it completes the last percent. */
  finish(): void {
    this.finishedAt = Date.now();
  }

  captureMs(): number {
    return (this.finishedAt ?? Date.now()) - this.startedAt;
  }

  assembling(): void {
    this.send("assemble");
  }

  private send(stage: "capture" | "assemble"): void {
    this.emit({
      type: "progress",
      stage,
      frame: this.done,
      totalFrames: this.totalFrames,
      percent: Math.round((this.done / this.totalFrames) * 1000) / 10,
      framesPerSecond: this.framesPerSecond(),
    });
  }
}
