import { closestMatch } from "../text/closest.js";
import { quote } from "../text/quote.js";
import type { CompositionVariable, VariableValues } from "./types.js";
import { describeEnumOptions, describeValue, describeVariableType, matchesVariableType } from "./value-types.js";

export interface VariableIssue {
  code: "undeclared" | "type-mismatch" | "enum-out-of-range";
  variable: string;
  expected: string;
  actual: string;
  /** What is wrong with the value, alone: for a render that stops on it. */
  problem: string;
  /** The problem and what a render that goes on does with the value (ignores it, uses the default). */
  message: string;
}

/**
 * Checks supplied values against the declarations; keys whose value is undefined count as absent.
 * Each message ends with what resolution does with the value (resolveVariableValues): an
 * undeclared key is ignored, a value of the wrong type or outside an enum's options gives way to
 * the declared default. `problem` is the same without that ending, for a render that stops.
 */
export function validateVariableValues(declarations: CompositionVariable[], values: VariableValues): VariableIssue[] {
  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  const declared = declarations.length === 0 ? "none" : declarations.map((declaration) => declaration.id).join(", ");
  const issues: VariableIssue[] = [];
  for (const [variable, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const declaration = byId.get(variable);
    const actual = describeValue(value);
    if (declaration === undefined) {
      const meant = closestMatch(variable, [...byId.keys()]);
      const guess = meant === undefined ? "" : `; did you mean ${quote(meant)}?`;
      issues.push({
        code: "undeclared",
        variable,
        expected: `a declared variable (${declared})`,
        actual: variable,
        problem: `${quote(variable)} is not a declared variable${guess} (declared: ${declared})`,
        message: `${quote(variable)} is not a declared variable${guess} (declared: ${declared}); ignored`,
      });
      continue;
    }
    const problem = valueProblem(declaration, value);
    if (problem) {
      const refused = `${quote(variable)} must be ${problem.expected}, got ${actual}`;
      const message = `${refused}; the default ${describeValue(declaration.default)} is used`;
      issues.push({ code: problem.code, variable, expected: problem.expected, actual, problem: refused, message });
    }
  }
  return issues;
}

/** Why a value cannot stand for its declared variable, or undefined when it can. */
export function valueProblem(declaration: CompositionVariable, value: unknown): { code: "type-mismatch" | "enum-out-of-range"; expected: string } | undefined {
  if (!matchesVariableType(declaration, value)) return { code: "type-mismatch", expected: describeVariableType(declaration) };
  if (declaration.type === "enum" && !declaration.options.some((option) => option.value === value)) {
    return { code: "enum-out-of-range", expected: `one of ${describeEnumOptions(declaration.options)}` };
  }
  return undefined;
}
