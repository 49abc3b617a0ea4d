import { readFile } from "node:fs/promises";
import { validateRenderOptions, type OptionProblem, type RenderOptions } from "@compose/core";
import type { CaptureMode } from "@compose/renderer";
import { maxConcurrentRenders } from "@compose/producer/config";
import { configOrUsageError, UsageError } from "../usage-error.js";
import type { FrameFlags } from "./frame-selection.js";
import type { SafetyFlags } from "./safety-flags.js";

/** What commander hands over for `compose render`: strings and booleans, as typed on the command line. */
export interface RenderFlags extends FrameFlags, SafetyFlags {
  output?: string;
  format?: string;
  fps?: string;
  quality?: string;
  crf?: string;
  videoBitrate?: string;
  workers?: string;
  maxConcurrentRenders?: string;
  gpu?: boolean;
  browserGpu?: boolean;
  hdr?: boolean;
  sdr?: boolean;
  docker?: boolean;
  quiet?: boolean;
  variables?: string;
  variablesFile?: string;
  strictVariables?: boolean;
  allowMissingAssets?: boolean;
}

/** `videoBitrate` -> `--video-bitrate`: errors name the flag the user typed. */
export function flagName(field: string): string {
  if (field === "allowHosts") return "--allow-host";
  return `--${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** Whole numbers become numbers; anything else stays text so the schema names what is allowed. */
function numeric(value: string | undefined): number | string | undefined {
  return value !== undefined && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

function parseVariablesJson(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${source} must be a JSON object mapping variable ids to values`);
  }
  return value as Record<string, unknown>;
}

/** --variables-file, then --variables over it: both are the CLI's one layer of values. */
async function readVariables(flags: RenderFlags): Promise<Record<string, unknown> | undefined> {
  let fromFile: Record<string, unknown> | undefined;
  if (flags.variablesFile !== undefined) {
    let text: string;
    try {
      text = await readFile(flags.variablesFile, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError(`--variables-file ${flags.variablesFile} cannot be read (${reason})`);
    }
    fromFile = parseVariablesJson(text, `--variables-file ${flags.variablesFile}`);
  }
  const inline = flags.variables === undefined ? undefined : parseVariablesJson(flags.variables, "--variables");
  return fromFile || inline ? { ...fromFile, ...inline } : undefined;
}

/** A problem of the options schema as one line, the field named as its user knows it. */
export function optionsProblemLine({ field, problem, value }: OptionProblem, nameOf: (field: string) => string): string {
  const shown = typeof value === "string" ? value : JSON.stringify(value);
  // A value can be megabytes of JSON: its start is enough to recognise it.
  const got = value === undefined ? "" : ` (got ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown})`;
  return `${nameOf(field)} ${problem}${got}`;
}

/** Turns the flags into validated render options, or a UsageError naming the flag and what it allows. */
export async function renderOptionsFromFlags(flags: RenderFlags): Promise<RenderOptions> {
  // Meaningful to the producer server only, but refused here by the server's own rule when out of range.
  configOrUsageError(() => maxConcurrentRenders(flags.maxConcurrentRenders, {}));
  const input = {
    format: flags.format,
    fps: numeric(flags.fps),
    quality: flags.quality,
    crf: numeric(flags.crf),
    videoBitrate: flags.videoBitrate,
    workers: numeric(flags.workers),
    gpu: flags.gpu,
    browserGpu: flags.browserGpu,
    hdr: flags.hdr,
    sdr: flags.sdr,
    docker: flags.docker,
    variables: await readVariables(flags),
    strictVariables: flags.strictVariables,
    allowMissingAssets: flags.allowMissingAssets,
    network: flags.network,
    allowHosts: flags.allowHost,
  };
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const result = validateRenderOptions(defined, flagName);
  if (!result.ok) throw new UsageError(optionsProblemLine(result.problem, flagName));
  return result.options;
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
