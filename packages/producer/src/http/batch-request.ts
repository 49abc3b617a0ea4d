import { basename, dirname, join } from "node:path";
import {
  expandOutputTemplate,
  extractCompositionMetadata,
  outputExtension,
  outputTemplateProblem,
  plural,
  rowName,
  rowProblemLine,
  sharedOutput,
  validateRenderOptions,
  type CompositionVariable,
  type RenderOptions,
} from "@compose/core";
import { compositionText, readProjectFile } from "@compose/renderer/project";
import type { RenderBatchSpec } from "../jobs/render-batch.js";
import type { RenderJobSpec } from "../jobs/render-job.js";
import type { WebhookRequest } from "../jobs/request-fields.js";
import { outputNameProblem, outputPath } from "../output/output-files.js";
import { HttpError, type RefusedRow } from "./errors.js";
import {
  checkWebhookHost,
  compositionField,
  compositionEntry,
  describeValue,
  invalid,
  optionProblemMessage,
  renderOptionsField,
  requestFields,
  requestOnlyFields,
  type RequestContext,
} from "./render-request.js";

/** Refused rows named in an error's message; all of them are in its `rows`. */
const LISTED_ROWS = 20;

export interface BatchRequestContext extends RequestContext {
  maxBatchRows: number;
}

/** A batch as its requests will be queued: one spec per row, in order, with the id it gets. */
export interface ParsedBatch {
  spec: RenderBatchSpec & { webhook?: WebhookRequest };
  rows: Array<{ id: string; spec: RenderJobSpec }>;
}

/** A 400 listing every refused row: a few in the message, all in `rows`. */
function refusedRows(rows: RefusedRow[], field: string, what: string): HttpError {
  const listed = rows.slice(0, LISTED_ROWS).map((row) => rowProblemLine({ row: row.row, kind: "error", code: "invalid-request", message: row.message }));
  const more = rows.length > LISTED_ROWS ? `; and ${rows.length - LISTED_ROWS} more (all in rows)` : "";
  return new HttpError(400, "invalid-request", `${plural(rows.length, "row")} ${what}, so nothing was queued: ${listed.join("; ")}${more}`, field, {}, rows);
}

function rowsField(rows: unknown, maxRows: number): unknown[] {
  if (!Array.isArray(rows))
    throw invalid(`rows must be a JSON array of variable objects, one per output (got ${rows === undefined ? "nothing" : describeValue(rows)})`, "rows");
  if (rows.length === 0) throw invalid("rows is empty: give at least one object of variable values", "rows");
  if (rows.length > maxRows) {
    throw new HttpError(413, "payload-too-large", `the batch has ${rows.length} rows, over this server's limit of ${maxRows} (its --max-batch-rows)`, "rows");
  }
  return rows;
}

/** Each row's variables, over the batch's own `variables`; a row is checked as a single request's `variables` is. */
function rowVariables(rows: unknown[], options: RenderOptions): Array<Record<string, unknown>> {
  const refused: RefusedRow[] = [];
  const values = rows.map((row, index) => {
    const result = validateRenderOptions({ variables: row });
    if (!result.ok) refused.push({ row: index + 1, message: optionProblemMessage(result.problem) });
    return { ...options.variables, ...(row as Record<string, unknown>) };
  });
  if (refused.length > 0) throw refusedRows(refused, "rows", "refused");
  return values;
}

async function declarationsOf(file: string, composition: string): Promise<CompositionVariable[]> {
  try {
    const bytes = await readProjectFile(dirname(file), basename(file), { shown: composition });
    return bytes === undefined ? [] : extractCompositionMetadata(compositionText(bytes, composition)).variables;
  } catch (error) {
    throw invalid(`composition ${(error as Error).message}`, "composition");
  }
}

/**
 * The rows' output names from the `output` template ({index}, {ext} and declared variables, as
 * `compose render --batch` fills them), each checked as a request's outputName is; two rows that
 * would write one file are refused.
 */
async function templateOutputNames(
  template: unknown,
  values: Array<Record<string, unknown>>,
  format: RenderOptions["format"],
  composition: { name: string; file: string },
): Promise<string[]> {
  if (typeof template !== "string") throw invalid(`output must be a template of file names, such as {index}.{ext} (got ${describeValue(template)})`, "output");
  if (/[\\/]/.test(template)) throw invalid(`output ${template} must name files in the outputs directory, without directories`, "output");
  const declarations = await declarationsOf(composition.file, composition.name);
  const problem = outputTemplateProblem(template, declarations);
  if (problem !== undefined) throw invalid(`output ${template} ${problem}`, "output");
  const count = values.length;
  const names = values.map((rowValues, index) => expandOutputTemplate(template, { index, count, values: rowValues }, declarations, outputExtension(format)));
  const refused = names.flatMap((name, index) => {
    const nameProblem = outputNameProblem(name, format);
    return nameProblem === undefined ? [] : [{ row: index + 1, message: `output makes ${name}, which ${nameProblem}` }];
  });
  if (refused.length > 0) throw refusedRows(refused, "output", "would have an output name that is refused");
  const shared = sharedOutput(names);
  if (shared !== undefined) {
    throw invalid(
      `${rowName(shared.first)} and ${rowName(shared.second)} would both write ${shared.output}: put {index} or a variable that differs in output`,
      "output",
    );
  }
  return names;
}

/**
 * Reads a batch body: `composition`, `rows` (each the `variables` of one request, over the
 * batch's own `variables`), an optional `output` template, the request's own fields and render
 * options shared by every row. Everything is checked before anything is queued; every refused
 * row is named.
 */
export async function parseBatchRequest(body: unknown, context: BatchRequestContext, ids: { batch: string; row: () => string }): Promise<ParsedBatch> {
  const { composition, rows, output, outputName, metadata, webhook, ...rest } = requestFields(body, "a composition, rows and render options");
  const rowList = rowsField(rows, context.maxBatchRows);
  if (outputName !== undefined) {
    throw invalid("outputName names one request's file; a batch names its rows' files with output, a template such as {index}-{name}.{ext}", "outputName");
  }
  const name = compositionField(composition);
  const own = requestOnlyFields({ metadata, webhook }, context);
  const options = renderOptionsField(rest, context);
  const entry = await compositionEntry(context, name);
  const values = rowVariables(rowList, options);
  const names = output === undefined ? undefined : await templateOutputNames(output, values, options.format, { name, file: entry.file });
  await checkWebhookHost(own.webhook, context.network);
  const specs = values.map((variables, index) => {
    const id = ids.row();
    const spec: RenderJobSpec = {
      composition: name,
      ...entry,
      output: names ? join(context.outputsDir, names[index]!) : outputPath(context.outputsDir, id, options.format),
      options: { ...options, variables },
      ...(own.metadata && { metadata: own.metadata }),
      batch: { id: ids.batch, row: index + 1 },
    };
    return { id, spec };
  });
  return { spec: { composition: name, format: options.format, ...own }, rows: specs };
}
