import { z } from "zod";
import { closestMatch } from "../text/closest.js";
import { listed } from "../text/listed.js";
import { FOLDER_FORMAT, FORMAT_TABLE, formatsWhere } from "../formats/format-table.js";
import { OUTPUT_FORMATS, RENDER_OPTIONS, type OutputFormat, type QualityName, type RenderOptionDeclaration } from "./option-declarations.js";

/**
 * The quality presets: CRF and x264 preset; and the JPEG quality at which mp4 frames leave
 * the browser, the lowest that keeps the output within 1 dB of what x264 makes from lossless
 * frames at the preset's CRF, small text included (docs/fidelity.md has the figures).
 */
export const QUALITY_PRESETS: Record<QualityName, { crf: number; x264Preset: string; jpegQuality: number }> = {
  draft: { crf: 28, x264Preset: "ultrafast", jpegQuality: 90 },
  standard: { crf: 18, x264Preset: "medium", jpegQuality: 95 },
  high: { crf: 15, x264Preset: "slow", jpegQuality: 95 },
};

type Declarations = typeof RENDER_OPTIONS;
/** A declared option's field: its default filled in when absent, else left out. */
type FieldSchema<Declaration extends RenderOptionDeclaration> = Declaration extends { default: unknown }
  ? z.ZodDefault<Declaration["schema"]>
  : z.ZodOptional<Declaration["schema"]>;
type RenderOptionsShape = { -readonly [Field in keyof Declarations]: FieldSchema<Declarations[Field]> };

function fieldSchema(declaration: RenderOptionDeclaration): z.ZodType {
  return declaration.default === undefined ? declaration.schema.optional() : declaration.schema.default(declaration.default);
}

/**
 * The render options shared by the CLI and the producer server, from their declarations
 * (./option-declarations.ts). Field names are the JSON names; unknown fields are refused.
 */
export const renderOptionsSchema = z.strictObject(
  Object.fromEntries(Object.entries(RENDER_OPTIONS).map(([field, declaration]) => [field, fieldSchema(declaration)])) as RenderOptionsShape,
);

export type RenderOptionsInput = z.input<typeof renderOptionsSchema>;
export type RenderOptions = z.output<typeof renderOptionsSchema>;

export interface OptionProblem {
  /** The JSON field name, e.g. `videoBitrate`. */
  field: string;
  /** What is wrong, phrased to follow the field's name. */
  problem: string;
  /** The rejected value, when one value alone is wrong (not a combination). */
  value?: unknown;
  /** What a mistyped field or value most likely meant: a render option's name, or one of the allowed values. */
  closest?: string;
}

export type OptionsResult = { ok: true; options: RenderOptions } | { ok: false; problem: OptionProblem };

/** Combinations the per-field rules cannot see; `nameOf` names a field as the caller's user knows it. */
function combinationProblem(options: RenderOptions, nameOf: (field: string) => string): OptionProblem | undefined {
  const conflict = (field: string, other: string) => ({ field, problem: `cannot be combined with ${nameOf(other)}: choose one` });
  if (options.crf !== undefined && options.videoBitrate !== undefined) return conflict("crf", "videoBitrate");
  if (options.hdr && options.sdr) return conflict("hdr", "sdr");
  const facts = FORMAT_TABLE[options.format];
  const notHere = (field: string, fact: "crf" | "bitrate" | "hdr" | "loop") => {
    const formats = formatsWhere(fact);
    return { field, problem: `applies to ${formats.join(" and ")}${formats.length === 1 ? " only" : ""}, not ${options.format}` };
  };
  if (options.hdr && !facts.hdr) return notHere("hdr", "hdr");
  if (options.crf !== undefined && !facts.crf) return notHere("crf", "crf");
  if (options.videoBitrate !== undefined && !facts.bitrate) return notHere("videoBitrate", "bitrate");
  if (options.gifLoop !== RENDER_OPTIONS.gifLoop.default && !facts.loop) return notHere("gifLoop", "loop");
  if (!facts.frameRates.includes(options.fps)) {
    return { field: "fps", problem: `must be ${listed(facts.frameRates, "or")} for ${options.format}`, value: options.fps };
  }
  return undefined;
}

function closestOf(word: unknown, candidates: readonly string[]): { closest?: string } {
  const closest = typeof word === "string" ? closestMatch(word, candidates) : undefined;
  return closest === undefined ? {} : { closest };
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
    const unknown = issue.keys[0] ?? "";
    return { ok: false, problem: { field: unknown, problem: "is not a render option", ...closestOf(unknown, Object.keys(RENDER_OPTIONS)) } };
  }
  const allowed = issue.code === "invalid_value" && typeof value === "string" ? issue.values.map(String) : [];
  return { ok: false, problem: { field, problem: issue.message, value, ...closestOf(value, allowed) } };
}

/** The worker rule: half the cores, capped at 4, at least 1. */
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
  return FORMAT_TABLE[format].extension;
}

/** The extension of the last segment of a path, lower-cased with its dot; "" when it has none. */
function extensionOf(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? "";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** The file format an output path's extension names (.mp4, .mov, .webm, .gif), if any. */
export function formatOfExtension(path: string): OutputFormat | undefined {
  const extension = extensionOf(path);
  return OUTPUT_FORMATS.find((format) => FORMAT_TABLE[format].extension !== "" && FORMAT_TABLE[format].extension === extension);
}

export type OutputFormatChoice = { ok: true; format: OutputFormat } | { ok: false; problem: string };

/**
 * The format an output path asks for when no format is given: its extension (.mp4, .mov,
 * .webm, .gif), or png-sequence for a directory (an existing one, a path ending in a slash, or a name
 * without an extension). Any other extension is refused, naming what is allowed.
 */
export function formatOfOutputPath(path: string, isDirectory: boolean): OutputFormatChoice {
  if (isDirectory || /[\\/]$/.test(path)) return { ok: true, format: FOLDER_FORMAT };
  const named = formatOfExtension(path);
  if (named) return { ok: true, format: named };
  const extension = extensionOf(path);
  if (extension === "") return { ok: true, format: FOLDER_FORMAT };
  const extensions = OUTPUT_FORMATS.map(outputExtension).filter((named) => named !== "");
  return {
    ok: false,
    problem: `ends in ${extension}, which names no output format: use ${listed(extensions, "or")}, a directory for ${FOLDER_FORMAT}, or --format`,
  };
}
