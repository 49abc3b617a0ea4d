import type { CompositionVariable, VariableValues } from "../variables/types.js";
import { validateVariableValues, type VariableIssue } from "../variables/validate-values.js";
import { describeValue, describeVariableType } from "../variables/value-types.js";
import { quote } from "../text/quote.js";

/**
 * One row of a batch: the variables of the top-level composition for one output. `line` is where
 * it starts in its file when it came from one (a CSV's line, a JSON Lines' line).
 */
export interface BatchRow {
  values: VariableValues;
  line?: number | undefined;
}

/** What is wrong with one row: refused outright (`error`), or a variable issue as `--variables` reports it. */
export interface RowProblem {
  /** 1-based, as the user counts rows. */
  row: number;
  line?: number | undefined;
  /** `error`: the row cannot render (a cell that is not its type); `issue`: a variable issue, an error only under --strict-variables. */
  kind: "error" | "issue";
  code: string;
  message: string;
}

/** `row 3 (line 4)`: how a row is named in every message. */
export function rowName(row: number, line?: number): string {
  return line === undefined ? `row ${row}` : `row ${row} (line ${line})`;
}

/** One problem as one line: `row 3 (line 4): 'size' must be a number, got "big"`. */
export function rowProblemLine(problem: RowProblem): string {
  return `${rowName(problem.row, problem.line)}: ${problem.message}`;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A text cell (a CSV's) read as its variable's type: numbers and booleans from their text, colours,
 * enums and strings as they are. An empty cell is absent, so the declared default applies; a
 * column no variable declares stays text, for validation to call undeclared.
 */
export function typedCell(declaration: CompositionVariable | undefined, cell: string): { value: unknown } | { problem: string } | undefined {
  if (cell === "") return undefined;
  if (declaration === undefined) return { value: cell };
  switch (declaration.type) {
    case "number":
      return NUMBER.test(cell.trim())
        ? { value: Number(cell.trim()) }
        : { problem: `${quote(declaration.id)} must be ${describeVariableType(declaration)}, got ${describeValue(cell)}` };
    case "boolean": {
      const word = cell.trim().toLowerCase();
      if (word === "true" || word === "false") return { value: word === "true" };
      return { problem: `${quote(declaration.id)} must be ${describeVariableType(declaration)} (true or false), got ${describeValue(cell)}` };
    }
    default:
      return { value: cell };
  }
}

/** Text rows (a CSV's, keyed by its header) typed by the declarations; cells that are not their type are the row's problems. */
export function typeTextRows(
  rows: ReadonlyArray<{ cells: Record<string, string>; line?: number }>,
  declarations: readonly CompositionVariable[],
): { rows: BatchRow[]; problems: RowProblem[] } {
  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  const problems: RowProblem[] = [];
  const typed = rows.map(({ cells, line }, index) => {
    const values: VariableValues = {};
    for (const [column, cell] of Object.entries(cells)) {
      const read = typedCell(byId.get(column), cell);
      if (read === undefined) continue;
      if ("problem" in read) problems.push({ row: index + 1, line, kind: "error", code: "type-mismatch", message: read.problem });
      else values[column] = read.value;
    }
    return { values, line };
  });
  return { rows: typed, problems };
}

/** Every row's variable issues, as `--variables` words them (with what a render that goes on does, or, strict, what stops it). */
export function rowIssues(rows: readonly BatchRow[], declarations: CompositionVariable[], strict: boolean): RowProblem[] {
  return rows.flatMap(({ values, line }, index) =>
    validateVariableValues(declarations, values).map((issue: VariableIssue) => ({
      row: index + 1,
      line,
      kind: "issue" as const,
      code: issue.code,
      message: strict ? issue.problem : issue.message,
    })),
  );
}
