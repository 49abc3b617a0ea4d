import type { RenderEvent } from "./render-events.js";

/** Progress events at most this often, so a stream to a slow client is not flooded. */
const INTERVAL_MS = 100;

/** Counts captured frames across workers and turns them into throttled progress events. */
export class ProgressMeter {
  private done = 0;
  private lastEmit = 0;
  private readonly startedAt = Date.now();
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
    this.done++;
    const now = Date.now();
    if (now - this.lastEmit >= INTERVAL_MS || this.done === this.totalFrames) {
      this.lastEmit = now;
      this.send("capture");
    }
  }

  /** Capture is complete; the last progress event is always sent. */
  finish(): void {
    this.finishedAt = Date.now();
    if (this.lastEmit === 0) this.send("capture");
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
