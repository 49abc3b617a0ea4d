import { basename } from "node:path";
import { isFinalEvent } from "./job-events.js";
import type { RenderJob } from "./render-job.js";

/**
 * The output names of this server's requests that have not ended: two requests may not write
 * one file at once. A name is held from before its request is queued until the request ends.
 */
export class OutputClaims {
  private readonly holders = new Map<string, RenderJob>();

  /** The first job whose output name a request still under way holds, with that request. */
  conflict(jobs: readonly RenderJob[]): { job: RenderJob; holder: RenderJob } | undefined {
    for (const job of jobs) {
      const holder = this.holders.get(basename(job.spec.output));
      if (holder && !holder.terminal) return { job, holder };
    }
    return undefined;
  }

  /** Holds each job's output name until the job ends; returns the function that lets them go at once (a refused submission). */
  claim(jobs: readonly RenderJob[]): () => void {
    const releases = jobs.map((job) => {
      const name = basename(job.spec.output);
      this.holders.set(name, job);
      const release = () => {
        if (this.holders.get(name) === job) this.holders.delete(name);
      };
      const unsubscribe = job.subscribe((event) => {
        if (isFinalEvent(event)) release();
      });
      return () => {
        unsubscribe();
        release();
      };
    });
    return () => releases.forEach((release) => release());
  }
}
