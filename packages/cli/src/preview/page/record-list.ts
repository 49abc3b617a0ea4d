// A string variable whose value is a JSON list of records (a chart's rows) is edited as a table.
// No DOM here.

export type RecordRow = Record<string, unknown>;

/** The rows of `text` when it is a JSON list of one or more records of plain values, else undefined. */
export function parseRecordList(text: unknown): RecordRow[] | undefined {
  if (typeof text !== "string") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const plain = (cell: unknown) => cell === null || ["string", "number", "boolean"].includes(typeof cell);
  const isRecord = (row: unknown): row is RecordRow => typeof row === "object" && row !== null && !Array.isArray(row) && Object.values(row).every(plain);
  return value.every(isRecord) ? value : undefined;
}

/** The table's columns: every key of every row, in the order they first appear. */
export function recordColumns(rows: readonly RecordRow[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row)))];
}

/** A cell's typed text as a value: a number where the column held numbers and the text is one, else the text. */
export function cellValue(rows: readonly RecordRow[], column: string, text: string): unknown {
  const numeric = rows.some((row) => typeof row[column] === "number");
  return numeric && text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
}
