import { z } from "zod";

export const OUTPUT_FORMATS = ["mp4", "mov", "webm", "png-sequence"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FRAME_RATES = [24, 30, 60] as const;
export type FrameRate = (typeof FRAME_RATES)[number];

export const QUALITY_NAMES = ["draft", "standard", "high"] as const;
export type QualityName = (typeof QUALITY_NAMES)[number];

/**
 * SPEC.md's quality presets: CRF and x264 preset; and the JPEG quality at which mp4 frames leave
 * the browser, the lowest that keeps the output within 1 dB of what x264 makes from lossless
 * frames at the preset's CRF, small text included (docs/fidelity.md has the figures).
 */
export const QUALITY_PRESETS: Record<QualityName, { crf: number; x264Preset: string; jpegQuality: number }> = {
  draft: { crf: 28, x264Preset: "ultrafast", jpegQuality: 90 },
  standard: { crf: 18, x264Preset: "medium", jpegQuality: 90 },
  high: { crf: 15, x264Preset: "slow", jpegQuality: 95 },
};

export const MAX_WORKERS = 8;

/** What a composition's pages may load: the project only, also public addresses, or anything. */
export const NETWORK_MODES = ["none", "public", "all"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** A host name, optionally `*.` for its subdomains, or an IP address: what --allow-host takes. */
const HOST_RULE = "must be a list of host names, such as cdn.example.com or *.example.com";

/** Formats whose output keeps an alpha channel, so the page background must be transparent. */
export const TRANSPARENT_FORMATS: readonly OutputFormat[] = ["mov", "webm", "png-sequence"];

const WORKERS_RULE = `must be an integer from 1 to ${MAX_WORKERS}, or auto`;

/** Variable values are strings, numbers and booleans; deeper nesting than this serves no composition. */
export const MAX_VARIABLES_DEPTH = 32;

/** How deep objects and arrays nest in `value`, counting stops once past the maximum. */
function nestingDepth(value: unknown, depth = 0): number {
  if (depth > MAX_VARIABLES_DEPTH || typeof value !== "object" || value === null) return depth;
  let deepest = depth + 1;
  for (const child of Object.values(value)) deepest = Math.max(deepest, nestingDepth(child, depth + 1));
  return deepest;
}

const oneOf = (values: readonly (string | number)[]) => values.join(", ");

/**
 * The render options shared by the CLI and the producer server. Field names are the JSON names;
 * the CLI maps each flag to one of them (`--video-bitrate` -> `videoBitrate`).
 */
export const renderOptionsSchema = z.strictObject({
  format: z.enum(OUTPUT_FORMATS, { error: `must be one of ${oneOf(OUTPUT_FORMATS)}` }).default("mp4"),
  fps: z
    .union(
      FRAME_RATES.map((rate) => z.literal(rate)),
      { error: `must be one of ${oneOf(FRAME_RATES)}` },
    )
    .default(30),
  quality: z.enum(QUALITY_NAMES, { error: `must be one of ${oneOf(QUALITY_NAMES)}` }).default("standard"),
  crf: z
    .number({ error: "must be an integer from 0 to 51" })
    .int({ error: "must be an integer from 0 to 51" })
    .min(0, { error: "must be an integer from 0 to 51" })
    .max(51, { error: "must be an integer from 0 to 51" })
    .optional(),
  videoBitrate: z
    .string({ error: "must be a bitrate such as 5M or 800k" })
    .regex(/^[1-9]\d*(\.\d+)?[kKmM]$/, { error: "must be a bitrate such as 5M or 800k" })
    .optional(),
  workers: z
    .union([z.literal("auto"), z.number().int().min(1).max(MAX_WORKERS)], { error: WORKERS_RULE })
    .default("auto"),
  gpu: z.boolean({ error: "must be true or false" }).default(false),
  browserGpu: z.boolean({ error: "must be true or false" }).optional(),
  hdr: z.boolean({ error: "must be true or false" }).default(false),
  sdr: z.boolean({ error: "must be true or false" }).default(false),
  docker: z.boolean({ error: "must be true or false" }).default(false),
  variables: z
    .record(z.string(), z.unknown(), { error: "must be a JSON object mapping variable ids to values" })
    .refine((values) => nestingDepth(values) <= MAX_VARIABLES_DEPTH, {
      error: `must be a JSON object nested at most ${MAX_VARIABLES_DEPTH} levels deep`,
    })
    .optional(),
  strictVariables: z.boolean({ error: "must be true or false" }).default(false),
  /** An asset that fails to load (image, font, style, script, fetch, media) warns instead of failing the render. */
  allowMissingAssets: z.boolean({ error: "must be true or false" }).default(false),
  // Absent: the renderer's own policy (everything for compose render, public for serve and worker).
  network: z.enum(NETWORK_MODES, { error: `must be one of ${oneOf(NETWORK_MODES)}` }).optional(),
  allowHosts: z
    .array(z.string().regex(/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9.:-]*[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/, { error: HOST_RULE }), { error: HOST_RULE })
    .max(100, { error: HOST_RULE })
    .optional(),
});

export type RenderOptionsInput = z.input<typeof renderOptionsSchema>;
export type RenderOptions = z.output<typeof renderOptionsSchema>;

export interface OptionProblem {
  /** The JSON field name, e.g. `videoBitrate`. */
  field: string;
  /** What is wrong, phrased to follow the field's name. */
  problem: string;
  /** The rejected value, when one value alone is wrong (not a combination). */
  value?: unknown;
}

export type OptionsResult = { ok: true; options: RenderOptions } | { ok: false; problem: OptionProblem };

/** Combinations the per-field rules cannot see; `nameOf` names a field as the caller's user knows it. */
function combinationProblem(options: RenderOptions, nameOf: (field: string) => string): OptionProblem | undefined {
  const conflict = (field: string, other: string) => ({ field, problem: `cannot be combined with ${nameOf(other)}: choose one` });
  if (options.crf !== undefined && options.videoBitrate !== undefined) return conflict("crf", "videoBitrate");
  if (options.hdr && options.sdr) return conflict("hdr", "sdr");
  if (options.hdr && options.format !== "mp4") return { field: "hdr", problem: `applies to mp4 only, not ${options.format}` };
  if (options.format === "mov" || options.format === "png-sequence") {
    const field = options.crf !== undefined ? "crf" : options.videoBitrate !== undefined ? "videoBitrate" : undefined;
    if (field) return { field, problem: `applies to mp4 and webm, not ${options.format}` };
  }
  return undefined;
}

/** Validates render options, reporting the first problem (one clear line is the rule). */
export function validateRenderOptions(input: unknown, nameOf: (field: string) => string = (field) => field): OptionsResult {
  const result = renderOptionsSchema.safeParse(input);
  if (result.success) {
    const problem = combinationProblem(result.data, nameOf);
    return problem ? { ok: false, problem } : { ok: true, options: result.data };
  }
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  const value = (input as Record<string, unknown>)[field];
  if (issue.code === "unrecognized_keys") {
    return { ok: false, problem: { field: issue.keys[0] ?? "", problem: "is not a render option" } };
  }
  // A union reports the failing member's own message; the field's rule is the clearer line.
  return { ok: false, problem: { field, problem: field === "workers" ? WORKERS_RULE : issue.message, value } };
}

/** SPEC.md's worker rule: half the cores, capped at 4, at least 1. */
export function defaultWorkerCount(cores: number): number {
  return Math.max(1, Math.min(4, Math.floor(cores / 2)));
}

export function resolveWorkerCount(workers: RenderOptions["workers"], cores: number): number {
  return workers === "auto" ? defaultWorkerCount(cores) : workers;
}

/** The number of frames in a composition: round(duration x fps), at least one. */
export function frameCount(durationSeconds: number, fps: number): number {
  return Math.max(1, Math.round(durationSeconds * fps));
}

export function outputExtension(format: OutputFormat): string {
  return format === "png-sequence" ? "" : `.${format}`;
}

/** The extension of the last segment of a path, lower-cased with its dot; "" when it has none. */
function extensionOf(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? "";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** The file format an output path's extension names (.mp4, .mov, .webm), if any. */
export function formatOfExtension(path: string): OutputFormat | undefined {
  const extension = extensionOf(path);
  return OUTPUT_FORMATS.find((format) => format !== "png-sequence" && outputExtension(format) === extension);
}

export type OutputFormatChoice = { ok: true; format: OutputFormat } | { ok: false; problem: string };

/**
 * The format an output path asks for when no format is given: its extension (.mp4, .mov,
 * .webm), or png-sequence for a directory (an existing one, a path ending in a slash, or a name
 * without an extension). Any other extension is refused, naming what is allowed.
 */
export function formatOfOutputPath(path: string, isDirectory: boolean): OutputFormatChoice {
  if (isDirectory || /[\\/]$/.test(path)) return { ok: true, format: "png-sequence" };
  const named = formatOfExtension(path);
  if (named) return { ok: true, format: named };
  const extension = extensionOf(path);
  if (extension === "") return { ok: true, format: "png-sequence" };
  return {
    ok: false,
    problem: `ends in ${extension}, which names no output format: use .mp4, .mov or .webm, a directory for png-sequence, or --format`,
  };
}
