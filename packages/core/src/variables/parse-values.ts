import { MAX_JSON_DEPTH, parseJson } from "../json/parse-json.js";
import type { VariableValues } from "./types.js";
import { describeValue } from "./value-types.js";

/** What variable values must be, wherever they are given (an attribute, --variables, a request). */
export const VARIABLE_VALUES_RULE = "must be a JSON object mapping variable ids to values";

/** Variable values are strings, numbers and booleans; deeper nesting than this serves no composition given as a value. */
export const MAX_VARIABLES_DEPTH = 32;

export function variablesDepthRule(maxDepth: number): string {
  return `must be a JSON object nested at most ${maxDepth} levels deep`;
}

export interface ValuesFinding {
  code: "variable-values-invalid-json" | "variable-values-not-object";
  message: string;
  /** Offset of a JSON syntax error in the text. */
  offset?: number;
}

/**
 * Reads a JSON object of variable values (data-variable-values, --variables). `maxDepth` is the
 * nesting allowed: values a user passes to a render are held to MAX_VARIABLES_DEPTH.
 */
export function parseVariableValues(json: string, source: string, maxDepth = MAX_JSON_DEPTH): { values: VariableValues } | { finding: ValuesFinding } {
  const parsed = parseJson(json, maxDepth);
  if (!parsed.ok && parsed.error.tooDeep) {
    return { finding: { code: "variable-values-not-object", message: `${source} ${variablesDepthRule(maxDepth)}`, offset: parsed.error.offset } };
  }
  if (!parsed.ok) {
    return {
      finding: {
        code: "variable-values-invalid-json",
        message: `${source} is not valid JSON: ${parsed.error.message}`,
        offset: parsed.error.offset,
      },
    };
  }
  const { value } = parsed;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      finding: {
        code: "variable-values-not-object",
        message: `${source} ${VARIABLE_VALUES_RULE}, got ${describeValue(value)}`,
      },
    };
  }
  return { values: value };
}
