import type { Job } from "bullmq";
import type { RenderEvent } from "@compose/renderer";
import { isRelayedEvent } from "./protocol.js";

/**
 * Puts the renderer's events about a render under way onto a job's progress, in order, each
 * warning once (every chunk of a render warns about the same composition). A failure to report
 * is not the render's, so it is dropped.
 */
export class EventRelay {
  private chain = Promise.resolve();
  private readonly warnings = new Set<string>();

  constructor(private readonly job: Job) {}

  readonly send = (event: RenderEvent): void => {
    if (!isRelayedEvent(event)) return;
    if (event.type === "warning") {
      const key = `${event.code}\n${event.message}`;
      if (this.warnings.has(key)) return;
      this.warnings.add(key);
    }
    this.chain = this.chain.then(() => this.job.updateProgress(event)).catch(() => undefined);
  };

  /** Resolves once every event sent so far has been reported. */
  settle(): Promise<void> {
    return this.chain;
  }
}
