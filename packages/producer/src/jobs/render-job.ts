import type { OutputFormat, RenderOptions } from "@compose/core";
import type { RenderEvent, RenderFailedEvent, RenderFinishedEvent, RenderProgressEvent } from "@compose/renderer";
import { clientEvent, type ClientRenderEvent, type JobEvent } from "./job-events.js";

export type RenderState = "queued" | "running" | "completed" | "failed" | "cancelled";

export interface RenderProgress {
  stage: "capture" | "assemble";
  frame: number;
  totalFrames: number;
  percent: number;
}

export interface RenderOutput {
  /** Where to download it, relative to the server's base URL. */
  url: string;
  format: OutputFormat;
  /** Bytes; for png-sequence, all files together. */
  size: number;
  /** Seconds. */
  duration: number;
  width: number;
  height: number;
  frames: number;
}

export interface RenderFailure {
  code: string;
  message: string;
}

/** GET /render/:id. Absent facts are null rather than missing, so clients need not guess. */
export interface RenderStatus {
  requestId: string;
  state: RenderState;
  composition: string;
  format: OutputFormat;
  /** Place in the queue while queued (1 runs next). */
  position: number | null;
  progress: RenderProgress | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  output: RenderOutput | null;
  error: RenderFailure | null;
}

export interface RenderJobSpec {
  /** The composition as the client named it, relative to the projects directory. */
  composition: string;
  /** The entry HTML file it resolved to. */
  file: string;
  /** Where the render writes: a file, or a directory for png-sequence. */
  output: string;
  options: RenderOptions;
}

type Listener = (event: JobEvent) => void;

/**
 * One render request: its state, its latest events and its listeners. The queue moves it along
 * (waiting, start) and hands it the renderer's events, whose last one (finished or failed) ends
 * it; the HTTP layer reads it and subscribes to it.
 */
export class RenderJob {
  private state: RenderState = "queued";
  private position: number | null = null;
  private progress: ClientRenderEvent<RenderProgressEvent> | null = null;
  private finished: ClientRenderEvent<RenderFinishedEvent> | null = null;
  private failure: ClientRenderEvent<RenderFailedEvent> | null = null;
  private startedAt: Date | null = null;
  private finishedAt: Date | null = null;
  private readonly listeners = new Set<Listener>();

  /**
   * `id` is chosen before the job exists because the output path is named after it. `createdAt`
   * is given when the job mirrors one another server accepted (the distributed queue).
   */
  constructor(
    readonly id: string,
    readonly spec: RenderJobSpec,
    private readonly createdAt = new Date(),
  ) {}

  get terminal(): boolean {
    return this.state === "completed" || this.state === "failed" || this.state === "cancelled";
  }

  /** Listens to every later event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waiting for a slot, at `position` (1 runs next); repeated positions are not announced again. */
  waiting(position: number): void {
    if (position === this.position) return;
    this.position = position;
    this.emit({ type: "queued", requestId: this.id, position });
  }

  start(): void {
    this.state = "running";
    this.position = null;
    this.startedAt = new Date();
    this.emit({ type: "running", requestId: this.id });
  }

  /** One of the renderer's events, passed on to the listeners as clientEvent() makes it. */
  record(event: RenderEvent): void {
    const sent = clientEvent(this.id, event, this.spec.output);
    switch (sent.type) {
      case "finished":
        this.finished = sent;
        return this.finish("completed", sent);
      case "failed":
        this.failure = sent;
        return this.finish(sent.code === "cancelled" ? "cancelled" : "failed", sent);
      case "progress":
        this.progress = sent;
    }
    this.emit(sent);
  }

  /** A failure, or with code `cancelled` a cancellation (before or during the render), told as the renderer tells its own. */
  fail(code: string, message: string, problems: Array<{ code: string; message: string }> = [{ code, message }]): void {
    this.record({ type: "failed", code, message, problems });
  }

  /** GET /render/:id keeps its documented shape; its facts are those of the events sent. */
  snapshot(): RenderStatus {
    const { progress, finished, failure } = this;
    return {
      requestId: this.id,
      state: this.state,
      composition: this.spec.composition,
      format: this.spec.options.format,
      position: this.position,
      progress: progress && { stage: progress.stage, frame: progress.frame, totalFrames: progress.totalFrames, percent: progress.percent },
      createdAt: this.createdAt.toISOString(),
      startedAt: this.startedAt?.toISOString() ?? null,
      finishedAt: this.finishedAt?.toISOString() ?? null,
      output: finished && {
        url: finished.output,
        format: finished.format,
        size: finished.sizeBytes,
        duration: finished.durationSeconds,
        width: finished.width,
        height: finished.height,
        frames: finished.frames,
      },
      error: failure && { code: failure.code, message: failure.message },
    };
  }

  private finish(state: RenderState, event: JobEvent): void {
    this.state = state;
    this.position = null;
    this.finishedAt = new Date();
    this.emit(event);
    // Nothing follows a final event; dropping the listeners lets their streams be collected.
    this.listeners.clear();
  }

  private emit(event: JobEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
