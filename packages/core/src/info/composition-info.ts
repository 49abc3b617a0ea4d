/**
 * What `compose info --json` prints, declared once: the CLI builds its output to this type, and the
 * JSON Schema published beside the OpenAPI document (GET /schemas/info.json, and
 * docs/schemas/info.schema.json) is generated from it by the producer's zod conversion.
 */
import { z } from "zod";
import { MAX_SNAPSHOT_MOMENTS, NETWORK_MODES } from "../options/option-declarations.js";
import { DURATION_SOURCES } from "../timing/resolve-timing.js";

/**
 * How a font family the composition names is drawn, in the order the browser looks: a generic
 * keyword (drawn with the default set), the project's own @font-face rules or Google Fonts
 * stylesheets, the project's font packages, a name of the default set, this machine's fonts; none
 * when nothing of its name is found (the text is drawn with another font).
 */
export const FONT_SOURCES = ["generic", "font-face", "package", "default", "system", "none"] as const;
export type FontSource = (typeof FONT_SOURCES)[number];

/**
 * What a render does with a remote URL: answers it from the project's packages (an exact-version
 * CDN file, a Google Fonts stylesheet of an installed font package), lets it go to the network,
 * or refuses it under the network policy.
 */
export const NETWORK_ANSWERS = ["project", "allowed", "refused"] as const;
export type NetworkAnswer = (typeof NETWORK_ANSWERS)[number];

const seconds = () => z.number().min(0);
const size = () => z.number().int().min(1);

const variableBase = {
  id: z.string(),
  label: z.string(),
  value: z.unknown().describe("What the page is given: the value passed (--variables), else the declared default."),
};

const variableSchema = z.discriminatedUnion("type", [
  z.object({ ...variableBase, type: z.literal("string"), default: z.string(), placeholder: z.string().optional(), maxLength: z.number().optional() }),
  z.object({
    ...variableBase,
    type: z.literal("number"),
    default: z.number(),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().optional(),
    unit: z.string().optional(),
  }),
  z.object({ ...variableBase, type: z.literal("color"), default: z.string() }),
  z.object({ ...variableBase, type: z.literal("boolean"), default: z.boolean() }),
  z.object({ ...variableBase, type: z.literal("enum"), default: z.string(), options: z.array(z.object({ value: z.string(), label: z.string() })) }),
]);

const instanceSchema = z.strictObject({
  id: z.string().nullable().describe("The host's data-composition-id."),
  in: z.string().describe("The file holding the host, relative to the project directory."),
  start: seconds().nullable().describe("Seconds in the host file's time; null when it cannot be resolved from the source."),
  duration: seconds().nullable(),
  values: z.record(z.string(), z.unknown()).describe("The host's data-variable-values."),
});

export const compositionInfoSchema = z.strictObject({
  kind: z.literal("composition"),
  file: z.string().describe("The composition's HTML file, relative to the current directory."),
  id: z.string().nullable(),
  width: size().nullable(),
  height: size().nullable(),
  duration: seconds().nullable().describe("Seconds; null when neither the source nor the page gives one (render refuses such a composition)."),
  durationSource: z.enum(DURATION_SOURCES).nullable().describe("Which part of the duration rule gave the duration."),
  page: z
    .strictObject({
      loaded: z.boolean(),
      reason: z.string().describe("Why the page was loaded in a browser, or why the source was enough."),
      warnings: z.array(z.strictObject({ code: z.string(), message: z.string() })).describe("What loading the page warned of, as a render would."),
    })
    .describe("Whether the facts come from a page loaded as render loads it (duration, media, fonts drawn) or from the source alone."),
  variables: z.array(variableSchema).describe("The declarations of data-composition-variables, each with the value the page gets."),
  variableIssues: z
    .array(z.strictObject({ code: z.string(), variable: z.string(), message: z.string() }))
    .describe("Values passed that do not fit their declarations."),
  subCompositions: z.array(
    z.strictObject({
      file: z.string().describe("Relative to the project directory."),
      id: z.string().nullable(),
      duration: seconds().nullable(),
      variables: z.array(z.string()).describe("The ids it declares."),
      instances: z.array(instanceSchema),
    }),
  ),
  media: z.array(
    z.strictObject({
      kind: z.enum(["video", "audio"]),
      id: z.string().nullable(),
      src: z.string().nullable().describe("A project path or a URL; null when a script sets it and no page was loaded."),
      start: seconds().nullable(),
      duration: seconds().nullable().describe("Seconds it plays; null when it is the file's length and no page was loaded to probe it."),
      audio: z.boolean().nullable().describe("Whether its sound is mixed; null when the source does not say."),
    }),
  ),
  fonts: z.array(
    z.strictObject({
      family: z.string(),
      source: z.enum(FONT_SOURCES),
      drawnWith: z.string().nullable().describe("The font its text is drawn with, when known."),
    }),
  ),
  network: z.strictObject({
    mode: z.enum(NETWORK_MODES),
    allowHosts: z.array(z.string()),
    urls: z.array(
      z.strictObject({
        url: z.string(),
        file: z.string().describe("The file that asks for it, relative to the project directory."),
        what: z.string().describe("What asks for it: `<script> src`, `url()`, ..."),
        answer: z.enum(NETWORK_ANSWERS),
        reason: z.string().nullable().describe("Why it is refused, or what would let the project serve it."),
      }),
    ),
  }),
  lint: z.strictObject({ errors: z.number().int().min(0), warnings: z.number().int().min(0) }).describe("What `compose lint` counts."),
});
export type CompositionInfoReport = z.infer<typeof compositionInfoSchema>;

export const folderInfoSchema = z.strictObject({
  kind: z.literal("folder"),
  folder: z.string().describe("The folder, as the command was given it."),
  compositions: z.array(
    z.strictObject({
      file: z.string().describe("Relative to the folder, with `/`."),
      id: z.string(),
      width: size().nullable(),
      height: size().nullable(),
      duration: seconds().nullable().describe("From the source alone; null when only a page would tell."),
    }),
  ),
});
export type FolderInfoReport = z.infer<typeof folderInfoSchema>;

/** One composition's facts, or for a folder without an index.html the compositions in it. */
export const infoOutputSchema = z.discriminatedUnion("kind", [compositionInfoSchema, folderInfoSchema]);
export type InfoOutput = z.infer<typeof infoOutputSchema>;

/** What `compose snapshot --json` prints. */
export const snapshotOutputSchema = z.strictObject({
  output: z.string().describe("The contact sheet, or the directory of frames."),
  moments: z.array(z.strictObject({ time: seconds().describe("The frame's time: frame / fps."), frame: z.number().int().min(0) })).max(MAX_SNAPSHOT_MOMENTS),
});
export type SnapshotOutput = z.infer<typeof snapshotOutputSchema>;
