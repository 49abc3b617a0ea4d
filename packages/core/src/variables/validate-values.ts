import { quote } from "../text/quote.js";
import type { CompositionVariable, VariableValues } from "./types.js";
import { describeEnumOptions, describeValue, describeVariableType, matchesVariableType } from "./value-types.js";

export interface VariableIssue {
  code: "undeclared" | "type-mismatch" | "enum-out-of-range";
  variable: string;
  expected: string;
  actual: string;
  message: string;
}

/** Checks supplied values against the declarations; keys whose value is undefined count as absent. */
export function validateVariableValues(declarations: CompositionVariable[], values: VariableValues): VariableIssue[] {
  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  const declared = declarations.length === 0 ? "none" : declarations.map((declaration) => declaration.id).join(", ");
  const issues: VariableIssue[] = [];
  for (const [variable, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const declaration = byId.get(variable);
    const actual = describeValue(value);
    if (declaration === undefined) {
      issues.push({
        code: "undeclared",
        variable,
        expected: `a declared variable (${declared})`,
        actual: variable,
        message: `${quote(variable)} is not a declared variable (declared: ${declared})`,
      });
    } else if (!matchesVariableType(declaration, value)) {
      const expected = describeVariableType(declaration);
      issues.push({ code: "type-mismatch", variable, expected, actual, message: `${quote(variable)} must be ${expected}, got ${actual}` });
    } else if (declaration.type === "enum" && !declaration.options.some((option) => option.value === value)) {
      const expected = `one of ${describeEnumOptions(declaration.options)}`;
      issues.push({ code: "enum-out-of-range", variable, expected, actual, message: `${quote(variable)} must be ${expected}, got ${actual}` });
    }
  }
  return issues;
}
