import { resolve } from "node:path";
import {
  expandOutputTemplate,
  extractCompositionMetadata,
  outputExtension,
  outputTemplateProblem,
  plural,
  rowIssues,
  rowName,
  rowProblemLine,
  sharedOutput,
  typeTextRows,
  type BatchRow,
  type CompositionVariable,
  type OutputFormat,
  type RowProblem,
  type VariableValues,
} from "@compose/core";
import { readCompositionFile } from "../project/read-composition-file.js";
import { UsageError } from "../usage-error.js";
import type { RowsFile } from "./read-rows-file.js";

/** One row as it will render: its values and its output, or why it cannot render. */
export interface PlannedRow extends BatchRow {
  /** 0-based. */
  index: number;
  output: string;
  /** The row's errors (a cell that is not its type): it is a failed row, the others render. */
  errors: RowProblem[];
  /** Variable issues that do not stop it (without --strict-variables): warnings, as --variables gives them. */
  warnings: RowProblem[];
}

export interface BatchPlan {
  rows: PlannedRow[];
  declarations: CompositionVariable[];
}

export interface BatchPlanRequest {
  compositionFile: string;
  /** The composition's name, for the default output folder. */
  name: string;
  rowsFile: RowsFile;
  /** --variables and --variables-file: values every row starts from, under its own. */
  base: VariableValues;
  /** --output as typed, a template; the default is renders/<name>/{index}.{ext}. */
  template: string | undefined;
  format: OutputFormat;
  /** One frame a row (--frame, --time): a PNG each. */
  still: boolean;
  strict: boolean;
}

/** renders/<name>/{index}.<ext>, or renders/<name>/{index} for png-sequence (a folder a row). */
export function defaultTemplate(name: string, extension: string): string {
  return `renders/${name}/{index}${extension === "" ? "" : ".{ext}"}`;
}

/**
 * Every row checked before any renders: typed (CSV), validated against the declarations, given
 * its output. A template that names nothing, two rows writing one file, or (with --strict-variables)
 * any row's issue is a usage error listing every problem, and nothing renders.
 */
export async function planBatch(request: BatchPlanRequest): Promise<BatchPlan> {
  const html = await readCompositionFile(request.compositionFile);
  const declarations = extractCompositionMetadata(html).variables;
  const extension = request.still ? ".png" : outputExtension(request.format);
  const template = request.template ?? defaultTemplate(request.name, extension);
  const templateProblem = outputTemplateProblem(template, declarations);
  if (templateProblem !== undefined) throw new UsageError(`--output ${template} ${templateProblem}`);

  const read = request.rowsFile.kind === "csv" ? typeTextRows(request.rowsFile.rows, declarations) : { rows: request.rowsFile.rows, problems: [] };
  const typed = { ...read, rows: read.rows.map((row) => ({ ...row, values: { ...request.base, ...row.values } })) };
  const issues = rowIssues(typed.rows, declarations, request.strict);
  if (request.strict && (issues.length > 0 || typed.problems.length > 0)) {
    const lines = [...typed.problems, ...issues].sort((a, b) => a.row - b.row).map(rowProblemLine);
    throw new UsageError(`${plural(new Set(lines.map((line) => line.split(":")[0])).size, "row")} refused by --strict-variables, so nothing rendered:`, lines);
  }
  const count = typed.rows.length;
  const rows = typed.rows.map((row, index): PlannedRow => ({
    ...row,
    index,
    output: resolve(expandOutputTemplate(template, { index, count, values: row.values }, declarations, extension)),
    errors: typed.problems.filter((problem) => problem.row === index + 1),
    warnings: issues.filter((problem) => problem.row === index + 1),
  }));
  const shared = sharedOutput(rows.map((row) => row.output));
  if (shared !== undefined) {
    const [first, second] = [rows[shared.first - 1]!, rows[shared.second - 1]!];
    throw new UsageError(
      `${rowName(shared.first, first.line)} and ${rowName(shared.second, second.line)} would both write ${expandOutputTemplate(template, { index: second.index, count, values: second.values }, declarations, extension)}: put {index} or a variable that differs in --output`,
    );
  }
  return { rows, declarations };
}
