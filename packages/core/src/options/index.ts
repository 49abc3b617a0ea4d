/**
 * The render options alone, for a program that reads them before any composition (a command line
 * checking its flags): their table, their validation, the output formats and the variable values
 * --variables takes. Its cost is zod's: none of the HTML parser and report schemas that the rest of
 * core loads. `@compose/core/options` is this module; core's index exports all of it too.
 */
export {
  RENDER_OPTIONS,
  OUTPUT_FORMATS,
  FRAME_RATES,
  QUALITY_NAMES,
  MAX_WORKERS,
  SCALE_RANGE,
  GIF_LOOP_RANGE,
  CONCURRENT_RENDERS,
  MAX_SNAPSHOT_MOMENTS,
  NETWORK_MODES,
  nestingDepth,
  type FlagDeclaration,
  type FlagScope,
  type RenderOptionDeclaration,
  type RenderOptionField,
  type NetworkMode,
  type OutputFormat,
  type FrameRate,
  type QualityName,
} from "./option-declarations.js";
export {
  renderOptionsSchema,
  validateRenderOptions,
  defaultWorkerCount,
  resolveWorkerCount,
  frameCount,
  outputExtension,
  formatOfExtension,
  formatOfOutputPath,
  QUALITY_PRESETS,
  type RenderOptions,
  type RenderOptionsInput,
  type OptionProblem,
  type OptionsResult,
  type OutputFormatChoice,
} from "./render-options.js";
export {
  FORMAT_TABLE,
  FOLDER_FORMAT,
  HDR_VIDEO,
  formatFacts,
  formatsWhere,
  isFolderOutput,
  allowsHardwareEncoding,
  contentTypeOfFile,
  paletteEncoding,
  isPaletteEncoding,
  partExtension,
  type FormatFacts,
  type VideoEncoding,
  type PaletteEncoding,
  type AudioEncoding,
  type ColourTags,
} from "../formats/format-table.js";
export { MAX_VARIABLES_DEPTH, parseVariableValues, type ValuesFinding } from "../variables/parse-values.js";
