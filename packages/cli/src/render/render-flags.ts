import { basename, dirname } from "node:path";
import type { VariableValues } from "@compose/core";
import {
  CONCURRENT_RENDERS,
  MAX_VARIABLES_DEPTH,
  parseVariableValues,
  RENDER_OPTIONS,
  validateRenderOptions,
  type OptionProblem,
  type RenderOptionDeclaration,
  type RenderOptionField,
  type RenderOptions,
} from "@compose/core/options";
import { createLineIndex } from "@compose/core/text";
import type { CaptureMode } from "@compose/renderer";
import { UsageError } from "../usage-error.js";
import { flagName, flagValue, type FlagsOf } from "./flag-options.js";

/** What commander hands over for `compose render`: strings, lists and booleans, as typed on the command line. */
export type RenderFlags = FlagsOf<"render">;

/** Whole numbers become numbers; anything else stays text so the schema names what is allowed. */
function numeric(value: string): number | string {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** Decimal numbers (2, 0.5, .25) become numbers; anything else stays text so the schema names what is allowed. */
function decimal(value: string): number | string {
  return /^-?(\d+\.?\d*|\.\d+)$/.test(value.trim()) ? Number(value) : value;
}

/** A JSON object of variable values, or a usage error naming `source` and where its text goes wrong. */
function variableValues(text: string, source: string): VariableValues {
  const parsed = parseVariableValues(text, source, MAX_VARIABLES_DEPTH);
  if ("values" in parsed) return parsed.values;
  const { message, offset } = parsed.finding;
  if (offset === undefined) throw new UsageError(message);
  const { line, column } = createLineIndex(text)(offset);
  throw new UsageError(`${message} (line ${line}, column ${column})`);
}

/**
 * The file the user names, read as the project's files are (a regular file, bounded in size and
 * time) with its own directory as the project: the container mounts it apart from the project.
 */
async function readVariablesFile(path: string): Promise<VariableValues> {
  // Loaded only for this flag: the project's file server behind it costs every other refusal's start.
  const { ProjectFileError, readProjectFile } = await import("@compose/renderer/project");
  let bytes: Buffer | undefined;
  try {
    bytes = await readProjectFile(dirname(path), basename(path), { shown: `--variables-file ${path}` });
  } catch (error) {
    if (error instanceof ProjectFileError) throw new UsageError(`[${error.code}] ${error.message}`);
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`--variables-file ${path} cannot be read (${reason})`);
  }
  if (bytes === undefined) throw new UsageError(`--variables-file ${path} cannot be read (ENOENT)`);
  return variableValues(bytes.toString("utf8"), `--variables-file ${path}`);
}

/** One render option's flag as the schema takes it, read as its declaration says. */
function optionInput(field: RenderOptionField, value: string | string[] | boolean): unknown {
  const { read }: RenderOptionDeclaration = RENDER_OPTIONS[field];
  if (typeof value !== "string") return value;
  if (read === "number") return numeric(value);
  if (read === "decimal") return decimal(value);
  if (read === "variables") return variableValues(value, flagName(field));
  return value;
}

/** A problem of the options schema as one line, the field named as its user knows it. */
export function optionsProblemLine({ field, problem, value }: OptionProblem, nameOf: (field: string) => string): string {
  const shown = typeof value === "string" ? value : JSON.stringify(value);
  // A value can be megabytes of JSON: its start is enough to recognise it.
  const got = value === undefined ? "" : ` (got ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown})`;
  return `${nameOf(field)} ${problem}${got}`;
}

/**
 * --max-concurrent-renders is the producer server's setting (compose serve's), listed by SPEC
 * among compose render's flags too: a render accepts it, refuses what the server would refuse,
 * and uses it for nothing.
 */
function checkServerConcurrency(text: string | undefined): void {
  if (text === undefined) return;
  const { min, max } = CONCURRENT_RENDERS;
  const value = numeric(text);
  if (typeof value !== "number" || value < min || value > max) {
    throw new UsageError(`${flagName("maxConcurrentRenders")} must be an integer from ${min} to ${max} (got ${text})`);
  }
}

/** Turns the flags into validated render options, or a UsageError naming the flag and what it allows. */
export async function renderOptionsFromFlags(flags: RenderFlags): Promise<RenderOptions> {
  checkServerConcurrency(flags.maxConcurrentRenders);
  const input: Record<string, unknown> = {};
  for (const field of Object.keys(RENDER_OPTIONS) as RenderOptionField[]) {
    const value = flagValue(flags, field);
    if (value !== undefined) input[field] = optionInput(field, value);
  }
  // --variables-file and --variables are the CLI's one layer of values, --variables on top.
  if (flags.variablesFile !== undefined) {
    input.variables = { ...(await readVariablesFile(flags.variablesFile)), ...(input.variables as VariableValues | undefined) };
  }
  const result = validateRenderOptions(input, optionFlag);
  if (!result.ok) throw new UsageError(optionsProblemLine(result.problem, optionFlag));
  return result.options;
}

/**
 * A render option as the CLI's user knows it, its flag: for problems of the options and for the
 * renderer's messages. Commander refuses unknown flags, and the renderer names declared options
 * only, so every field named here is a declared one.
 */
export function optionFlag(field: string): string {
  return flagName(field as RenderOptionField);
}

/** Settings for unusual machines and for tests, read from the environment rather than flags. */
export function renderSettingsFromEnvironment(env: NodeJS.ProcessEnv): { captureMode?: CaptureMode; readyTimeoutMs?: number } {
  const settings: { captureMode?: CaptureMode; readyTimeoutMs?: number } = {};
  const mode = env.COMPOSE_CAPTURE_MODE;
  if (mode !== undefined && mode !== "") {
    if (mode !== "beginframe" && mode !== "screenshot") {
      throw new UsageError(`COMPOSE_CAPTURE_MODE must be beginframe or screenshot (got ${mode})`);
    }
    settings.captureMode = mode;
  }
  const timeout = env.COMPOSE_READY_TIMEOUT_MS;
  if (timeout !== undefined && timeout !== "") {
    if (!/^\d+$/.test(timeout) || Number(timeout) < 1) {
      throw new UsageError(`COMPOSE_READY_TIMEOUT_MS must be a positive whole number of milliseconds (got ${timeout})`);
    }
    settings.readyTimeoutMs = Number(timeout);
  }
  return settings;
}
