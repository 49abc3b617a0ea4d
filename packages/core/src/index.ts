export { parseJson, MAX_JSON_DEPTH, type JsonValue, type JsonParseResult, type JsonSyntaxError } from "./json/parse-json.js";
export { jsonSchema } from "./json/json-schema.js";

export { parseStartExpression, type StartExpression } from "./timing/start-expression.js";
export {
  resolveTiming,
  compositionDuration,
  DURATION_SOURCES,
  type DurationSource,
  type TimingInput,
  type ResolvedTiming,
  type TimingError,
  type TimingErrorCode,
} from "./timing/resolve-timing.js";

export {
  VARIABLE_TYPES,
  type CompositionVariable,
  type StringVariable,
  type NumberVariable,
  type ColorVariable,
  type BooleanVariable,
  type EnumVariable,
  type EnumOption,
  type VariableType,
  type VariableValues,
} from "./variables/types.js";
export { parseVariableDeclarations, type DeclarationFinding, type DeclarationFindingCode } from "./variables/parse-declarations.js";
export { validateVariableValues, type VariableIssue } from "./variables/validate-values.js";
export { resolveVariableValues } from "./variables/resolve-values.js";
export { describeValue } from "./variables/value-types.js";

export { parseComposition } from "./html/parse-composition.js";
export { FRAME_SCRIPT_ATTRIBUTE, headScriptOffset, injectFirstScript, runtimeBootCall, runtimeScripts, writtenDocument } from "./html/inject-first-script.js";
export type {
  ParsedComposition,
  CompositionRoot,
  TimedElement,
  TimedElementKind,
  SubCompositionHost,
  VariableValuesAttribute,
  AttributeText,
  MediaReference,
  ScriptReference,
  AttributeUse,
  CompositionProblem,
  CompositionProblemCode,
  SourceLocation,
} from "./html/types.js";

export { resolveCompositionTiming, type CompositionTiming } from "./metadata/resolve-composition-timing.js";
export {
  extractCompositionMetadata,
  type CompositionMetadata,
  type MetadataOptions,
  type CompositionInstance,
  type CompositionMedia,
} from "./metadata/extract-metadata.js";

export { FONT_PACKAGE_CODE, LINT_CODES, LINT_SEVERITIES, PROJECT_FILE_CODE, type LintCode, type LintSeverity } from "./lint/codes.js";
export type { FontPackageProblem, LintFinding } from "./lint/types.js";
export { lintFindingSchema, lintOutputSchema, type LintOutput } from "./lint/lint-output.js";
export type { EmbeddedComposition } from "./lint/rules/rule.js";
export { rootSizeMismatchMessage, type RootSize } from "./lint/rules/root-size.js";
export { noDurationMessage, oddSizeMessage } from "./lint/rules/render-refusals.js";
export { lintComposition, type LintCompositionOptions } from "./lint/lint-composition.js";
export { lintProject, type LoadFile, type ResolvePath } from "./lint/lint-project.js";
export { networkRefusedMessage, type AssetLintOptions, type CheckAsset } from "./lint/asset-files.js";
export type { AssetReference } from "./html/asset-references.js";

export * from "./options/index.js";
export * from "./text/index.js";

export {
  RENDER_ERROR_CODES,
  RENDER_EVENT_TYPES,
  HISTORY_PATHS,
  renderErrorCodeSchema,
  renderEventSchema,
  renderStartedEventSchema,
  renderProgressSchema,
  renderProgressEventSchema,
  renderWarningEventSchema,
  frameStatsSchema,
  renderFinishedEventSchema,
  renderProblemSchema,
  renderFailedEventSchema,
  type RenderErrorCode,
  type RenderEvent,
  type RenderStartedEvent,
  type RenderProgress,
  type RenderProgressEvent,
  type RenderWarningEvent,
  type FrameStats,
  type HistoryPath,
  type RenderFinishedEvent,
  type RenderProblem,
  type RenderFailedEvent,
} from "./events/render-events.js";

export { rowIssues, rowName, rowProblemLine, typeTextRows, typedCell, type BatchRow, type RowProblem } from "./batch/batch-rows.js";
export { expandOutputTemplate, fileNamePart, outputTemplateProblem, rowIndexText, sharedOutput } from "./batch/output-template.js";

export {
  FONT_SOURCES,
  NETWORK_ANSWERS,
  compositionInfoSchema,
  folderInfoSchema,
  infoOutputSchema,
  snapshotOutputSchema,
  type FontSource,
  type NetworkAnswer,
  type CompositionInfoReport,
  type FolderInfoReport,
  type InfoOutput,
  type SnapshotOutput,
} from "./info/composition-info.js";

export { DOCTOR_CHECK_STATUSES, doctorCheckSchema, doctorOutputSchema, type DoctorCheck, type DoctorOutput } from "./reports/doctor-output.js";
export {
  benchmarkOutputSchema,
  benchmarkRecommendationSchema,
  benchmarkRunSchema,
  type BenchmarkOutput,
  type BenchmarkRecommendation,
  type BenchmarkRun,
} from "./reports/benchmark-output.js";
