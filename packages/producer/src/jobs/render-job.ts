import type { OutputFormat, RenderOptions } from "@compose/core";
import type { HistoryPath, RenderEvent, RenderFinishedEvent } from "@compose/renderer";
import { renderUrls } from "../http/urls.js";

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

/** What a client sees of one request: the stream's events, one per change. */
export type JobEvent =
  | { type: "queued"; requestId: string; position: number }
  | { type: "started"; requestId: string }
  | ({ type: "progress"; requestId: string } & RenderProgress)
  | { type: "warning"; requestId: string; code: string; message: string }
  | ({ type: "complete"; requestId: string; output: string; history: HistoryPath } & Omit<RenderOutput, "url">)
  | ({ type: "error"; requestId: string } & RenderFailure);

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
 * One render request: its state, its latest progress and its listeners. The queue moves it
 * along (waiting, start, complete, fail); the HTTP layer reads it and subscribes to it.
 */
export class RenderJob {
  private state: RenderState = "queued";
  private position: number | null = null;
  private progress: RenderProgress | null = null;
  private output: RenderOutput | null = null;
  private error: RenderFailure | null = null;
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
    this.emit({ type: "started", requestId: this.id });
  }

  /** The renderer's events while running; its outcome arrives through complete() or fail(). */
  record(event: RenderEvent): void {
    if (event.type === "progress") {
      const { stage, frame, totalFrames, percent } = event;
      this.progress = { stage, frame, totalFrames, percent };
      this.emit({ type: "progress", requestId: this.id, ...this.progress });
    } else if (event.type === "warning") {
      this.emit({ type: "warning", requestId: this.id, code: event.code, message: event.message });
    }
  }

  complete(finished: RenderFinishedEvent): void {
    this.output = {
      url: renderUrls.output(this.id),
      format: finished.format,
      size: finished.sizeBytes,
      duration: finished.durationSeconds,
      width: finished.width,
      height: finished.height,
      frames: finished.frames,
    };
    const { url, ...facts } = this.output;
    this.finish("completed", { type: "complete", requestId: this.id, output: url, ...facts, history: finished.history });
  }

  /** A failure, or with code `cancelled` a cancellation (before or during the render). */
  fail(code: string, message: string): void {
    this.error = { code, message };
    this.finish(code === "cancelled" ? "cancelled" : "failed", { type: "error", requestId: this.id, ...this.error });
  }

  snapshot(): RenderStatus {
    return {
      requestId: this.id,
      state: this.state,
      composition: this.spec.composition,
      format: this.spec.options.format,
      position: this.position,
      progress: this.progress,
      createdAt: this.createdAt.toISOString(),
      startedAt: this.startedAt?.toISOString() ?? null,
      finishedAt: this.finishedAt?.toISOString() ?? null,
      output: this.output,
      error: this.error,
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
