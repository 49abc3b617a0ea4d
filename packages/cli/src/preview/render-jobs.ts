import { access, lstat, mkdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { isFolderOutput, listed, OUTPUT_FORMATS, outputExtension, validateRenderOptions } from "@compose/core";
import type { JobEvent, JobExecutor } from "@compose/producer";
import { RenderJob } from "@compose/producer/render-job";
import { optionsProblemLine } from "../render/render-flags.js";
import { isInstanceValues, isPlainObject } from "./instance-values.js";
import { RENDERS_FOLDER } from "../project/renders-folder.js";

/** What the page may choose; everything else is the CLI's default. `instances` is the preview's own. */
const PAGE_FIELDS = ["format", "quality", "fps", "scale", "workers", "allowMissingAssets", "variables", "instances"] as const;

/** The formats the preview renders: every one that is a file. */
const FILE_FORMATS = OUTPUT_FORMATS.filter((format) => !isFolderOutput(format));

/** A render started from the page: the server's job model, with every event kept for a page that connects late. */
export interface PreviewRender {
  job: RenderJob;
  /** Every event so far, so a page that connects late sees the whole render. */
  events: JobEvent[];
  cancel(): void;
}

export interface RenderJobsOptions {
  /** The project directory, served at the preview's root: outputs go under its renders/ folder. */
  root: string;
  /** Runs a job to its end: the server's executor around render(), with the settings compose render reads from the environment. */
  execute: JobExecutor;
}

/** `busy`: another render is running, which this one would compete with for the machine. */
export type StartResult = { ok: true; render: PreviewRender } | { ok: false; problem: string; busy?: boolean };

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
    if (
      !(await access(output).then(
        () => true,
        () => false,
      ))
    )
      return output;
  }
}

/** The renders started from the preview page: one at a time, each with its own id and event log. */
export function createRenderJobs(options: RenderJobsOptions) {
  const renders = new Map<string, PreviewRender>();
  let counter = 0;
  /** The id of the render running or being set up; set before anything is awaited, so two requests never both start. */
  let active: string | undefined;

  /** Starts a render of `entry`, named `name` in output files: renders/<name>-<time>-<n>.<ext>. */
  async function start(body: unknown, entry: { file: string; name: string }): Promise<StartResult> {
    if (!isPlainObject(body)) return { ok: false, problem: "the request body must be a JSON object of render options" };
    const unknownField = Object.keys(body).find((field) => !(PAGE_FIELDS as readonly string[]).includes(field));
    if (unknownField !== undefined)
      return { ok: false, problem: `${unknownField} is not an option of a render from the preview (allowed: ${PAGE_FIELDS.join(", ")})` };
    const { instances, ...fields } = body;
    if (instances !== undefined && !isInstanceValues(instances)) {
      return { ok: false, problem: "instances must map data-composition-id to an object of variable values" };
    }
    const result = validateRenderOptions(fields);
    if (!result.ok) return { ok: false, problem: optionsProblemLine(result.problem, (field) => field) };
    const renderOptions = result.options;
    if (isFolderOutput(renderOptions.format)) {
      return {
        ok: false,
        problem: `format ${renderOptions.format} writes a folder of images: render it with compose render; choose ${listed(FILE_FORMATS, "or")} here`,
      };
    }
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
    const job = new RenderJob(
      id,
      { composition: relative(options.root, entry.file), file: entry.file, output, options: renderOptions, instances },
      { outputUrl: `/${relative(options.root, output).split(sep).map(encodeURIComponent).join("/")}` },
    );
    const controller = new AbortController();
    const render: PreviewRender = { job, events: [], cancel: () => controller.abort() };
    job.subscribe((event) => {
      render.events.push(event);
      if (job.terminal && active === id) active = undefined;
    });
    renders.set(id, render);
    // The preview runs one render at a time, so a render never waits: it runs at once.
    job.start();
    void options.execute(job, controller.signal);
    return { ok: true, render };
  }

  return {
    start,
    get: (id: string) => renders.get(id),
    cancelAll() {
      for (const render of renders.values()) if (!render.job.terminal) render.cancel();
    },
  };
}

export type RenderJobs = ReturnType<typeof createRenderJobs>;
