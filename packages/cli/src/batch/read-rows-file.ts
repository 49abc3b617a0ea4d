import { basename, dirname, extname } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { createLineIndex, MAX_VARIABLES_DEPTH, parseJson, type BatchRow, type JsonValue } from "@compose/core";
import { ProjectFileError, readProjectFile } from "@compose/renderer/project";
import { UsageError } from "../usage-error.js";

/** A batch's rows as its file holds them: JSON values already typed, or a CSV's text cells for the declarations to type. */
export type RowsFile = { kind: "json"; rows: BatchRow[] } | { kind: "csv"; rows: Array<{ cells: Record<string, string>; line: number }> };

const FORMS = 'a JSON array of objects (or {"rows": [...]}), JSON Lines (one object a line), or CSV with a header row';

function isObject(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rowsOf(values: JsonValue[], lineOf: (index: number) => number | undefined, shown: string): BatchRow[] {
  return values.map((value, index) => {
    if (!isObject(value))
      throw new UsageError(
        `${shown}: row ${index + 1}${lineOf(index) === undefined ? "" : ` (line ${lineOf(index)})`} must be a JSON object of variable values (got ${Array.isArray(value) ? "an array" : JSON.stringify(value)})`,
      );
    return { values: value, line: lineOf(index) };
  });
}

function jsonRows(text: string, shown: string): BatchRow[] {
  const parsed = parseJson(text, MAX_VARIABLES_DEPTH + 2);
  if (!parsed.ok) {
    const { line, column } = createLineIndex(text)(parsed.error.offset);
    throw new UsageError(`${shown} is not valid JSON: ${parsed.error.message} (line ${line}, column ${column})`);
  }
  const { value } = parsed;
  const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.rows) ? value.rows : undefined;
  if (list === undefined) throw new UsageError(`${shown} must hold ${FORMS}`);
  // Lines name rows only where each row has a line of its own.
  const lineAt = createLineIndex(text);
  const lines = list.map((row) => {
    const offset = parsed.offsets.get(row as object);
    return offset === undefined ? undefined : lineAt(offset).line;
  });
  const ownLines = new Set(lines).size === lines.length && !lines.includes(undefined);
  return rowsOf(list, (index) => (ownLines ? lines[index] : undefined), shown);
}

function jsonLinesRows(text: string, shown: string): BatchRow[] {
  const values: JsonValue[] = [];
  const lines: number[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === "") continue;
    const parsed = parseJson(line, MAX_VARIABLES_DEPTH + 1);
    if (!parsed.ok) throw new UsageError(`${shown} line ${index + 1} is not valid JSON: ${parsed.error.message} (column ${parsed.error.offset + 1})`);
    values.push(parsed.value);
    lines.push(index + 1);
  }
  return rowsOf(values, (index) => lines[index], shown);
}

function csvRows(text: string, shown: string): RowsFile & { kind: "csv" } {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parseCsv(text, { bom: true, columns: true, skip_empty_lines: true, info: true }) as typeof records;
  } catch (error) {
    throw new UsageError(`${shown} is not valid CSV: ${(error as Error).message}`);
  }
  return { kind: "csv", rows: records.map(({ record, info }) => ({ cells: record, line: info.lines })) };
}

/** Which form a rows file is in: by its extension, else by its first character. */
function formOf(path: string, text: string): "json" | "jsonl" | "csv" {
  const extension = extname(path).toLowerCase();
  if (extension === ".csv") return "csv";
  if (extension === ".jsonl" || extension === ".ndjson") return "jsonl";
  if (extension === ".json") return "json";
  const start = text.trimStart();
  if (start.startsWith("[")) return "json";
  if (start.startsWith("{")) return parseJson(text).ok ? "json" : "jsonl";
  return "csv";
}

/**
 * The rows of `--batch FILE`, read as the user's other files are (a regular file, bounded in size
 * and time). A file with no rows is a usage error: a batch of nothing is surely a mistake.
 */
export async function readRowsFile(path: string): Promise<RowsFile> {
  const shown = `--batch ${path}`;
  let bytes: Buffer | undefined;
  try {
    bytes = await readProjectFile(dirname(path), basename(path), { shown });
  } catch (error) {
    if (error instanceof ProjectFileError) throw new UsageError(`[${error.code}] ${error.message}`);
    throw new UsageError(`${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (bytes === undefined) throw new UsageError(`${shown} cannot be read (ENOENT)`);
  const text = bytes.toString("utf8");
  const form = formOf(path, text);
  const file: RowsFile = form === "csv" ? csvRows(text, shown) : { kind: "json", rows: form === "json" ? jsonRows(text, shown) : jsonLinesRows(text, shown) };
  if (file.rows.length === 0) throw new UsageError(`${shown} holds no rows: give ${FORMS}`);
  return file;
}
