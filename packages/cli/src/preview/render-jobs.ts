import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { outputExtension, validateRenderOptions } from "@compose/core";
import type { RenderEvent, RenderRequest, RenderHooks, RenderFinishedEvent } from "@compose/renderer";
import { optionsProblemLine } from "../render/render-flags.js";
import { isInstanceValues, isPlainObject, withInstanceValues } from "./instance-values.js";

/** What the page may choose; everything else is the CLI's default. `instances` is the preview's own. */
const PAGE_FIELDS = ["format", "quality", "fps", "workers", "variables", "instances"] as const;

/**
 * The entry with the page's instance values, written beside it for one render (relative URLs
 * must resolve as in the entry) and removed after; the watcher and the composition list skip it.
 */
export const INSTANCE_COPY = /\.preview-render-\d+\.html$/;

export type RenderFunction = (request: RenderRequest, hooks: RenderHooks) => Promise<RenderFinishedEvent>;

export interface RenderJob {
  id: string;
  /** Every event so far, so a page that connects late sees the whole render. */
  events: RenderEvent[];
  /** URL path of the output on the preview server. */
  outputUrl: string;
  done: boolean;
  cancel(): void;
  /** Calls `fn` for each event to come; returns the unsubscribe function. */
  subscribe(fn: (event: RenderEvent) => void): () => void;
}

export interface RenderJobsOptions {
  /** The composition the page shows now, and its name for output files: renders/<name>-<time>-<n>.<ext>. */
  entry: () => { file: string; name: string };
  /** The project directory, served at the preview's root: outputs go under its renders/ folder. */
  root: string;
  render: RenderFunction;
  /** Capture mode and timeouts from the environment, as compose render reads them. */
  settings?: Partial<RenderRequest>;
}

export type StartResult = { ok: true; job: RenderJob } | { ok: false; problem: string };

/** Folder under the project root that the preview's renders are written to (and the watcher ignores). */
export const RENDERS_FOLDER = "renders";

/** The renders started from the preview page: one at a time, each with its event log. */
export function createRenderJobs(options: RenderJobsOptions) {
  const jobs = new Map<string, RenderJob>();
  let counter = 0;

  const running = () => [...jobs.values()].some((job) => !job.done);

  async function start(body: unknown): Promise<StartResult> {
    if (!isPlainObject(body)) return { ok: false, problem: "the request body must be a JSON object of render options" };
    const unknownField = Object.keys(body).find((field) => !(PAGE_FIELDS as readonly string[]).includes(field));
    if (unknownField !== undefined) return { ok: false, problem: `${unknownField} is not an option of a render from the preview (allowed: ${PAGE_FIELDS.join(", ")})` };
    const { instances, ...fields } = body;
    if (instances !== undefined && !isInstanceValues(instances)) {
      return { ok: false, problem: "instances must map data-composition-id to an object of variable values" };
    }
    const result = validateRenderOptions(fields);
    if (!result.ok) return { ok: false, problem: optionsProblemLine(result.problem, (field) => field) };
    const renderOptions = result.options;
    if (renderOptions.format === "png-sequence") return { ok: false, problem: "format png-sequence writes a folder of images: render it with compose render; choose mp4, mov or webm here" };
    if (running()) return { ok: false, problem: "a render is already running: wait for it or cancel it" };

    counter++;
    const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
    const entry = options.entry();
    const file = `${entry.name}-${stamp}-${counter}${outputExtension(renderOptions.format)}`;
    const folder = join(options.root, RENDERS_FOLDER);
    await mkdir(folder, { recursive: true });
    const output = join(folder, file);
    const controller = new AbortController();
    const listeners = new Set<(event: RenderEvent) => void>();
    const job: RenderJob = {
      id: String(counter),
      events: [],
      outputUrl: `/${relative(options.root, output).split(sep).map(encodeURIComponent).join("/")}`,
      done: false,
      cancel: () => controller.abort(),
      subscribe(fn) {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
    };
    const emit = (event: RenderEvent) => {
      job.events.push(event);
      if (event.type === "finished" || event.type === "failed") job.done = true;
      for (const listener of listeners) listener(event);
    };
    jobs.set(job.id, job);
    const hostValues = instances;
    const copy = hostValues && Object.keys(hostValues).length > 0 ? join(dirname(entry.file), `${basename(entry.file).replace(/\.html?$/i, "")}.preview-render-${counter}.html`) : undefined;
    const run = async () => {
      if (copy) await writeFile(copy, withInstanceValues(await readFile(entry.file, "utf8"), hostValues!));
      try {
        await options.render({ ...options.settings, composition: copy ?? entry.file, output, options: renderOptions }, { onEvent: emit, signal: controller.signal });
      } finally {
        if (copy) await rm(copy, { force: true });
      }
    };
    run().catch((error: Error) => {
      // render() reports its own failures as a failed event; this is for anything else.
      if (!job.done) emit({ type: "failed", code: "internal", message: error.message, problems: [{ code: "internal", message: error.message }] });
    });
    return { ok: true, job };
  }

  return {
    start,
    get: (id: string) => jobs.get(id),
    cancelAll() {
      for (const job of jobs.values()) if (!job.done) job.cancel();
    },
  };
}

export type RenderJobs = ReturnType<typeof createRenderJobs>;
