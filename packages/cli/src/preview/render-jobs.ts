import { access, lstat, mkdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { outputExtension, validateRenderOptions } from "@compose/core";
import type { RenderEvent, RenderRequest, RenderHooks, RenderFinishedEvent } from "@compose/renderer";
import { optionsProblemLine } from "../render/render-flags.js";
import { isInstanceValues, isPlainObject } from "./instance-values.js";

/** What the page may choose; everything else is the CLI's default. `instances` is the preview's own. */
const PAGE_FIELDS = ["format", "quality", "fps", "workers", "allowMissingAssets", "variables", "instances"] as const;

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
  /** The project directory, served at the preview's root: outputs go under its renders/ folder. */
  root: string;
  render: RenderFunction;
  /** Capture mode and timeouts from the environment, as compose render reads them. */
  settings?: Partial<RenderRequest>;
}

/** `busy`: another render is running, which this one would compete with for the machine. */
export type StartResult = { ok: true; job: RenderJob } | { ok: false; problem: string; busy?: boolean };

/** Folder under the project root that the preview's renders are written to (and the watcher ignores). */
export const RENDERS_FOLDER = "renders";

/**
 * The renders folder, made when missing; refused when it is anything but a real folder of the
 * project (a link would send the output elsewhere).
 */
async function rendersFolder(root: string): Promise<string> {
  const folder = join(root, RENDERS_FOLDER);
  const info = await lstat(folder).catch(() => undefined);
  if (info === undefined) await mkdir(folder);
  else if (!info.isDirectory()) throw new Error(`${folder} is not a folder: the preview writes its renders there; move it away or render with compose render`);
  return folder;
}

/** renders/<name>-<time>-<n>.<ext> for the first n from `from` that names no existing file. */
async function freeOutput(folder: string, stem: string, extension: string, from: number): Promise<string> {
  for (let n = from; ; n++) {
    const output = join(folder, `${stem}-${n}${extension}`);
    if (!(await access(output).then(() => true, () => false))) return output;
  }
}

/** The renders started from the preview page: one at a time, each with its own id and event log. */
export function createRenderJobs(options: RenderJobsOptions) {
  const jobs = new Map<string, RenderJob>();
  let counter = 0;
  /** The id of the render running or being set up; set before anything is awaited, so two requests never both start. */
  let active: string | undefined;

  /** Starts a render of `entry`, named `name` in output files: renders/<name>-<time>-<n>.<ext>. */
  async function start(body: unknown, entry: { file: string; name: string }): Promise<StartResult> {
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
    if (active !== undefined) return { ok: false, busy: true, problem: `render ${active} is running: wait for it to finish or cancel it, then render again` };

    const id = String(++counter);
    active = id;
    let output: string;
    try {
      const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
      output = await freeOutput(await rendersFolder(options.root), `${entry.name}-${stamp}`, outputExtension(renderOptions.format), counter);
    } catch (error) {
      active = undefined;
      return { ok: false, problem: (error as Error).message };
    }
    const controller = new AbortController();
    const listeners = new Set<(event: RenderEvent) => void>();
    const job: RenderJob = {
      id,
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
      if (event.type === "finished" || event.type === "failed") {
        job.done = true;
        if (active === id) active = undefined;
      }
      for (const listener of listeners) listener(event);
    };
    jobs.set(id, job);
    const request = { ...options.settings, composition: entry.file, output, options: renderOptions, instances: instances as Record<string, Record<string, unknown>> | undefined };
    options.render(request, { onEvent: emit, signal: controller.signal }).catch((error: Error) => {
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
