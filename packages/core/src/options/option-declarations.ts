/**
 * Every render option, declared once: its JSON name (the key), its flag, type and allowed values
 * (the zod schema, with the line that names them), default, help text, and where it is read.
 * Derived from this table, and written nowhere else:
 * - renderOptionsSchema (./render-options.ts), which the CLI, the preview and the server validate
 *   with, and from it the OpenAPI request body (packages/producer/src/openapi/openapi-document.ts);
 * - the commander options and their help of compose render, serve, worker and benchmark
 *   (packages/cli/src/render/flag-options.ts);
 * - flags -> options (packages/cli/src/render/render-flags.ts);
 * - the flags passed into the container of --docker (packages/cli/src/docker/run-command.ts).
 * The CLI's flags that are not render options (--output, --frames, the limits...) are declared
 * the same way in packages/cli/src/render/cli-flags.ts.
 */
import { z } from "zod";
import { listed } from "../text/listed.js";
import { MAX_VARIABLES_DEPTH, VARIABLE_VALUES_RULE, variablesDepthRule } from "../variables/parse-values.js";

export const OUTPUT_FORMATS = ["mp4", "mov", "webm", "png-sequence", "gif"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FRAME_RATES = [24, 30, 60] as const;
export type FrameRate = (typeof FRAME_RATES)[number];

export const QUALITY_NAMES = ["draft", "standard", "high"] as const;
export type QualityName = (typeof QUALITY_NAMES)[number];

export const MAX_WORKERS = 8;

/**
 * How many renders the producer server runs at once: compose serve's --max-concurrent-renders and
 * PRODUCER_MAX_CONCURRENT_RENDERS. No request sets it, so it is no render option; SPEC lists the
 * flag among compose render's too, which accepts and checks it and uses it for nothing.
 */
export const CONCURRENT_RENDERS = { min: 1, max: 10, default: 2 } as const;

/** The most moments one snapshot takes (--at, --count): a contact sheet of more is no longer read at a glance. */
export const MAX_SNAPSHOT_MOMENTS = 100;

/** What a composition's pages may load: the project only, also public addresses, or anything. */
export const NETWORK_MODES = ["none", "public", "all"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** Where a flag is read. Every render option is also a field of the server's render request. */
export type FlagScope =
  /** A flag of compose render. */
  | "render"
  /** A flag of compose info: what changes the facts it reports (variables, the network policy). */
  | "info"
  /** A flag of compose snapshot: what changes the frames it captures, as it changes a render's. */
  | "snapshot"
  /** Passed on as typed to the render inside the container of compose render --docker. */
  | "container"
  /** A flag of compose serve and compose worker: the operator's, for every request. */
  | "serve-worker";

export interface FlagDeclaration {
  /** Commander's syntax: `--video-bitrate <rate>`, `-f, --format <format>`; without `<value>` it is a switch. */
  readonly flag: string;
  /** What it does, as --help says it; "(default: ...)" follows from `default` or `defaultText`. */
  readonly help: string;
  /** The value when the flag is absent; without one (and without `defaultText`) it stays absent. */
  readonly default?: string | number | boolean;
  /** The help's default where the value alone does not say it: it depends on other flags, or needs a reason. */
  readonly defaultText?: string;
  /** Help of the switch's `--no-` form, when it has one. */
  readonly negatedHelp?: string;
  /**
   * How the CLI reads the flag's text: whole numbers as numbers, or (decimal) any decimal number
   * as a number (anything else stays text, so the schema names what is allowed), each use of a
   * repeated flag into a list, a JSON object of variable values; else as typed.
   */
  readonly read?: "number" | "decimal" | "list" | "variables";
  readonly scopes: readonly FlagScope[];
  /** Accepted and checked, but left out of --help: it acts on no single render (a server's setting). */
  readonly hidden?: boolean;
}

export interface RenderOptionDeclaration extends FlagDeclaration {
  /** The value's type and allowed values; each refusal is one line saying what is allowed. */
  readonly schema: z.ZodType;
}

const oneOf = (values: readonly (string | number)[]) => values.join(", ");
/** `a, b or c`, as help text lists choices. */
const either = (values: readonly (string | number)[]) => listed(values, "or");
const BOOLEAN = z.boolean({ error: "must be true or false" });

const CRF_RULE = "must be an integer from 0 to 51";
const BITRATE_RULE = "must be a bitrate such as 5M or 800k";
const WORKERS_RULE = `must be an integer from 1 to ${MAX_WORKERS}, or auto`;

/** Device pixels per CSS pixel a render may draw at: a quarter of the composition's size to four times it. */
export const SCALE_RANGE = { min: 0.25, max: 4 } as const;
const SCALE_RULE = `must be a number from ${SCALE_RANGE.min} to ${SCALE_RANGE.max}`;

/**
 * A GIF's loop count as ffmpeg's gif muxer takes it and the NETSCAPE2.0 extension stores it: how
 * many times the animation repeats after it has played once; 0 repeats forever, and -1 writes no
 * loop extension at all, so that it plays once.
 */
export const GIF_LOOP_RANGE = { once: -1, forever: 0, max: 65535 } as const;
const GIF_LOOP_RULE = `must be an integer from ${GIF_LOOP_RANGE.once} to ${GIF_LOOP_RANGE.max}: ${GIF_LOOP_RANGE.forever} repeats forever, ${GIF_LOOP_RANGE.once} plays once`;
/** A host name, optionally `*.` for its subdomains, or an IP address: what --allow-host takes. */
const HOST_RULE = "must be a list of host names, such as cdn.example.com or *.example.com";

/** How deep objects and arrays nest in `value` (a flat object is 1), counting stops once past MAX_VARIABLES_DEPTH. */
export function nestingDepth(value: unknown, depth = 0): number {
  if (depth > MAX_VARIABLES_DEPTH || typeof value !== "object" || value === null) return depth;
  let deepest = depth + 1;
  for (const child of Object.values(value)) deepest = Math.max(deepest, nestingDepth(child, depth + 1));
  return deepest;
}

const RENDER = ["render"] as const;
const RENDER_AND_CONTAINER = ["render", "container"] as const;

/** The render options of the CLI and the server, by their JSON names, in --help order. */
export const RENDER_OPTIONS = {
  format: {
    flag: "-f, --format <format>",
    help: `output format: ${either(OUTPUT_FORMATS)}`,
    schema: z.enum(OUTPUT_FORMATS, { error: `must be one of ${oneOf(OUTPUT_FORMATS)}` }),
    default: "mp4",
    defaultText: "from the output's extension, a directory for png-sequence; else mp4",
    scopes: RENDER_AND_CONTAINER,
  },
  fps: {
    flag: "--fps <fps>",
    help: `frames per second: ${either(FRAME_RATES)}`,
    schema: z.union(
      FRAME_RATES.map((rate) => z.literal(rate)),
      { error: `must be one of ${oneOf(FRAME_RATES)}` },
    ),
    default: 30,
    read: "number",
    scopes: [...RENDER_AND_CONTAINER, "snapshot"],
  },
  quality: {
    flag: "--quality <preset>",
    help: `encoding preset: ${either(QUALITY_NAMES)}`,
    schema: z.enum(QUALITY_NAMES, { error: `must be one of ${oneOf(QUALITY_NAMES)}` }),
    default: "standard",
    scopes: RENDER_AND_CONTAINER,
  },
  crf: {
    flag: "--crf <n>",
    help: "constant rate factor 0-51, overriding the preset; not with --video-bitrate",
    schema: z.number({ error: CRF_RULE }).int({ error: CRF_RULE }).min(0, { error: CRF_RULE }).max(51, { error: CRF_RULE }),
    defaultText: "the preset's",
    read: "number",
    scopes: RENDER_AND_CONTAINER,
  },
  videoBitrate: {
    flag: "--video-bitrate <rate>",
    help: "target bitrate such as 5M or 800k; not with --crf",
    schema: z.string({ error: BITRATE_RULE }).regex(/^[1-9]\d*(\.\d+)?[kKmM]$/, { error: BITRATE_RULE }),
    defaultText: "none, the preset's CRF",
    scopes: RENDER_AND_CONTAINER,
  },
  scale: {
    flag: "--scale <factor>",
    help: `device pixels per CSS pixel, ${SCALE_RANGE.min}-${SCALE_RANGE.max}: the page is laid out at the composition's size and drawn this many times sharper (2 makes a 1920x1080 composition 3840x2160); the limits apply to the scaled size`,
    schema: z.number({ error: SCALE_RULE }).min(SCALE_RANGE.min, { error: SCALE_RULE }).max(SCALE_RANGE.max, { error: SCALE_RULE }),
    default: 1,
    read: "decimal",
    scopes: RENDER_AND_CONTAINER,
  },
  gifLoop: {
    flag: "--gif-loop <n>",
    help: `gif only: how many times the animation repeats after playing once, up to ${GIF_LOOP_RANGE.max}; ${GIF_LOOP_RANGE.forever} repeats forever, ${GIF_LOOP_RANGE.once} plays it once`,
    schema: z
      .number({ error: GIF_LOOP_RULE })
      .int({ error: GIF_LOOP_RULE })
      .min(GIF_LOOP_RANGE.once, { error: GIF_LOOP_RULE })
      .max(GIF_LOOP_RANGE.max, { error: GIF_LOOP_RULE }),
    default: GIF_LOOP_RANGE.forever,
    defaultText: `${GIF_LOOP_RANGE.forever}, forever`,
    read: "number",
    scopes: RENDER_AND_CONTAINER,
  },
  workers: {
    flag: "--workers <n>",
    help: `parallel browser workers, 1-${MAX_WORKERS} or auto`,
    // Each member carries the rule too: a union reports the failing member's own message.
    schema: z.union(
      [
        z.literal("auto"),
        z.number({ error: WORKERS_RULE }).int({ error: WORKERS_RULE }).min(1, { error: WORKERS_RULE }).max(MAX_WORKERS, { error: WORKERS_RULE }),
      ],
      { error: WORKERS_RULE },
    ),
    default: "auto",
    defaultText: "auto, half the cores, at most 4",
    read: "number",
    scopes: RENDER_AND_CONTAINER,
  },
  gpu: {
    flag: "--gpu",
    help: "hardware video encoding when available",
    schema: BOOLEAN,
    default: false,
    scopes: RENDER_AND_CONTAINER,
  },
  browserGpu: {
    flag: "--browser-gpu",
    help: "let the browser use the host GPU",
    // Absent: the renderer decides (on locally); the container always refuses it.
    schema: BOOLEAN,
    defaultText: "on in local mode",
    negatedHelp: "refuse the host GPU for reproducible capture (default in container mode)",
    scopes: RENDER,
  },
  hdr: {
    flag: "--hdr",
    help: "force HDR output, mp4 only",
    schema: BOOLEAN,
    default: false,
    defaultText: "HDR when an HDR source is found",
    scopes: RENDER_AND_CONTAINER,
  },
  sdr: {
    flag: "--sdr",
    help: "force SDR output",
    schema: BOOLEAN,
    default: false,
    scopes: RENDER_AND_CONTAINER,
  },
  docker: {
    flag: "--docker",
    help: "render inside the compose-render container image, for deterministic output; needs Docker",
    schema: BOOLEAN,
    default: false,
    scopes: RENDER,
  },
  variables: {
    flag: "--variables <json>",
    help: "variable values for the top-level composition, as a JSON object",
    schema: z.record(z.string(), z.unknown(), { error: VARIABLE_VALUES_RULE }).refine((values) => nestingDepth(values) <= MAX_VARIABLES_DEPTH, {
      error: variablesDepthRule(MAX_VARIABLES_DEPTH),
    }),
    defaultText: "the declared defaults",
    read: "variables",
    scopes: [...RENDER_AND_CONTAINER, "info", "snapshot"],
  },
  strictVariables: {
    flag: "--strict-variables",
    help: "treat variable warnings as errors",
    schema: BOOLEAN,
    default: false,
    scopes: [...RENDER_AND_CONTAINER, "snapshot"],
  },
  allowMissingAssets: {
    flag: "--allow-missing-assets",
    help: "warn of assets that fail to load (images, fonts, styles, scripts, media) instead of failing",
    schema: BOOLEAN,
    default: false,
    scopes: [...RENDER_AND_CONTAINER, "snapshot"],
  },
  replaceOutput: {
    flag: "--replace-output",
    help: "let a png-sequence write into an output directory that is not empty, replacing the frames and audio of an earlier sequence (other files stay); without it such a directory is refused",
    schema: BOOLEAN,
    default: false,
    scopes: [...RENDER_AND_CONTAINER, "snapshot"],
  },
  network: {
    flag: "--network <mode>",
    help: "what pages may load: none (the project only), public (also public addresses), all",
    // Absent: the renderer's own policy (everything for compose render, public for serve and
    // worker); each command's help names its own.
    schema: z.enum(NETWORK_MODES, { error: `must be one of ${oneOf(NETWORK_MODES)}` }),
    scopes: ["render", "container", "serve-worker", "info", "snapshot"],
  },
  allowHosts: {
    flag: "--allow-host <host>",
    help: "also allow this host name (or *.domain), whatever it resolves to; repeatable",
    schema: z
      .array(z.string().regex(/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9.:-]*[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/, { error: HOST_RULE }), { error: HOST_RULE })
      .max(100, { error: HOST_RULE }),
    read: "list",
    scopes: ["render", "container", "serve-worker", "info", "snapshot"],
  },
} as const satisfies Record<string, RenderOptionDeclaration>;

export type RenderOptionField = keyof typeof RENDER_OPTIONS;
