import { basename } from "node:path";
import type { RenderErrorCode, RenderOptions, RenderProblem } from "@compose/core";
import type { RenderEvent as RendererEvent } from "@compose/renderer";
import { renderUrls } from "./render-urls.js";
import { clientEvent, type ClientRenderEvent, type JobEvent } from "./job-events.js";
import type { BatchMembership, RequestMetadata, WebhookRequest, WebhookStatus } from "./request-fields.js";
import type { RenderState, RenderStatus } from "./render-status.js";

export type { RenderState, RenderStatus } from "./render-status.js";

export interface RenderJobSpec {
  /** The composition as the client named it, relative to the projects directory. */
  composition: string;
  /** The entry HTML file it resolved to. */
  file: string;
  /** Where the render writes: a file, or a directory for png-sequence. */
  output: string;
  options: RenderOptions;
  /** Values for sub-composition hosts by data-composition-id, in place of their data-variable-values: the preview's. */
  instances?: Record<string, Record<string, unknown>>;
  /** The client's own object, echoed in the status and on every event. */
  metadata?: RequestMetadata;
  /** Where the server calls back when the render ends. */
  webhook?: WebhookRequest;
  /** The batch this request is a row of. */
  batch?: BatchMembership;
  /** sha256 of the entry file when the request was accepted: a request resumed after a restart renders only the composition it was given. */
  compositionDigest?: string;
}

/**
 * What outlives the process of a request: its spec and the facts its status is made of, not its
 * listeners, its place in the queue or its progress (a render under way starts over).
 */
export interface JobRecord {
  id: string;
  spec: RenderJobSpec;
  state: RenderState;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  finished: ClientRenderEvent<"finished"> | null;
  failure: ClientRenderEvent<"failed"> | null;
  /** The delivery of the request's webhook, by its id. */
  webhookId: string | null;
}

/** How a job delivers its webhook, as the status shows it. */
export interface JobWebhook {
  readonly id: string;
  status(): WebhookStatus;
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
  private progress: ClientRenderEvent<"progress"> | null = null;
  private finished: ClientRenderEvent<"finished"> | null = null;
  private failure: ClientRenderEvent<"failed"> | null = null;
  private startedAt: Date | null = null;
  private finishedAt: Date | null = null;
  private readonly listeners = new Set<Listener>();
  /** Every event sent, but of `queued` and `progress` only the latest: what a late listener is told first. */
  private readonly history: JobEvent[] = [];

  private readonly createdAt: Date;
  /** Where clients download the output: the server's /render/{id}/output, or the preview's own URL of the file. */
  readonly outputUrl: string;
  /** How the request's webhook is being delivered, when this server delivers it. */
  private readonly webhook: JobWebhook | undefined;

  /**
   * `id` is chosen before the job exists because the output path is named after it. `createdAt`
   * is given when the job mirrors one another server accepted (the distributed queue).
   */
  constructor(
    readonly id: string,
    readonly spec: RenderJobSpec,
    options: { createdAt?: Date; outputUrl?: string; webhook?: JobWebhook } = {},
  ) {
    this.createdAt = options.createdAt ?? new Date();
    this.outputUrl = options.outputUrl ?? renderUrls.output(id);
    this.webhook = options.webhook;
  }

  /**
   * A request as its record left it: one that had ended ends again at once (its history is its
   * last event), one that had not is a new job waiting to be queued again.
   */
  static fromRecord(record: JobRecord, webhook?: JobWebhook): RenderJob {
    const job = new RenderJob(record.id, record.spec, { createdAt: new Date(record.createdAt), ...(webhook && { webhook }) });
    const end = record.finished ?? record.failure;
    if (end === null || (record.state !== "completed" && record.state !== "failed" && record.state !== "cancelled")) return job;
    job.startedAt = record.startedAt === null ? null : new Date(record.startedAt);
    job.finished = record.finished;
    job.failure = record.failure;
    job.finish(record.state, end, new Date(record.finishedAt ?? record.createdAt));
    return job;
  }

  toRecord(): JobRecord {
    return {
      id: this.id,
      spec: this.spec,
      state: this.state,
      createdAt: this.createdAt.toISOString(),
      startedAt: this.startedAt?.toISOString() ?? null,
      finishedAt: this.finishedAt?.toISOString() ?? null,
      finished: this.finished,
      failure: this.failure,
      webhookId: this.webhook?.id ?? null,
    };
  }

  get terminal(): boolean {
    return this.state === "completed" || this.state === "failed" || this.state === "cancelled";
  }

  /** Listens to every later event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listener what happened so far (the history), then every later event; returns the unsubscribe function. */
  follow(listener: Listener): () => void {
    for (const event of [...this.history]) listener(event);
    return this.terminal ? () => undefined : this.subscribe(listener);
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
  record(event: RendererEvent): void {
    const sent = clientEvent(this.id, event, { path: this.spec.output, url: this.outputUrl });
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
  fail(code: RenderErrorCode, message: string, problems: RenderProblem[] = [{ code, message }]): void {
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
      outputName: basename(this.spec.output),
      metadata: this.spec.metadata ?? null,
      batch: this.spec.batch ?? null,
      webhook: this.webhook?.status() ?? null,
    };
  }

  private finish(state: RenderState, event: JobEvent, at = new Date()): void {
    this.state = state;
    this.position = null;
    this.finishedAt = at;
    this.emit(event);
    // Nothing follows a final event; dropping the listeners lets their streams be collected.
    this.listeners.clear();
  }

  private emit(event: JobEvent): void {
    const { metadata, batch } = this.spec;
    const sent: JobEvent = { ...event, ...(metadata && { metadata }), ...(batch && { row: batch.row }) };
    this.remember(sent);
    for (const listener of [...this.listeners]) listener(sent);
  }

  /** A request's place and progress change often: only the latest of each is kept, so the history stays small. */
  private remember(event: JobEvent): void {
    if (event.type === "queued" || event.type === "progress") {
      const earlier = this.history.findIndex((kept) => kept.type === event.type);
      if (earlier >= 0) this.history.splice(earlier, 1);
    }
    this.history.push(event);
  }
}
