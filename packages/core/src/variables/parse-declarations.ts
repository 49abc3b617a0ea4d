import { parseJson, type JsonValue } from "../json/parse-json.js";
import { quote } from "../text/quote.js";
import { VARIABLE_TYPES, type CompositionVariable, type VariableType } from "./types.js";
import { describeEnumOptions, describeValue, describeVariableType, matchesVariableType } from "./value-types.js";

export type DeclarationFindingCode =
  | "variables-invalid-json"
  | "variables-not-array"
  | "variable-not-object"
  | "variable-missing-field"
  | "variable-invalid-field"
  | "variable-unknown-type"
  | "variable-duplicate-id"
  | "variable-default-mismatch"
  | "variable-invalid-options"
  | "variable-min-above-max"
  | "variable-invalid-step";

export interface DeclarationFinding {
  code: DeclarationFindingCode;
  message: string;
  /** Offset into the JSON text: where a syntax error is, or where the offending declaration starts. */
  offset?: number;
  /** Position of the offending declaration in the array. */
  index?: number;
}

type Entry = { [key: string]: JsonValue };

const REQUIRED_FIELDS = ["id", "type", "label", "default"] as const;

/**
 * Reads a data-composition-variables attribute. Lenient: well-formed declarations are kept and every
 * problem with the others is reported, so one typo does not hide the remaining variables.
 */
export function parseVariableDeclarations(json: string | null | undefined): {
  variables: CompositionVariable[];
  findings: DeclarationFinding[];
} {
  if (json === null || json === undefined) return { variables: [], findings: [] };
  const parsed = parseJson(json);
  if (!parsed.ok) {
    return {
      variables: [],
      findings: [
        {
          code: "variables-invalid-json",
          message: `data-composition-variables is not valid JSON: ${parsed.error.message}`,
          offset: parsed.error.offset,
        },
      ],
    };
  }
  if (!Array.isArray(parsed.value)) {
    return {
      variables: [],
      findings: [
        {
          code: "variables-not-array",
          message: `data-composition-variables must be a JSON array of declarations, got ${describeValue(parsed.value)}`,
        },
      ],
    };
  }

  const variables: CompositionVariable[] = [];
  const findings: DeclarationFinding[] = [];
  const firstIndexById = new Map<string, number>();
  parsed.value.forEach((entry, index) => {
    const offset = typeof entry === "object" && entry !== null ? parsed.offsets.get(entry) : undefined;
    const problems = checkDeclaration(entry, index);
    if (isObject(entry) && isNonEmptyString(entry.id)) {
      const first = firstIndexById.get(entry.id);
      if (first === undefined) firstIndexById.set(entry.id, index);
      else {
        problems.push({
          code: "variable-duplicate-id",
          message: `variable ${quote(entry.id)} is declared twice (declarations #${first + 1} and #${index + 1}); ids must be unique`,
        });
      }
    }
    for (const { code, message } of problems) findings.push(offset === undefined ? { code, message, index } : { code, message, index, offset });
    if (problems.length === 0) variables.push({ ...(entry as Entry) } as unknown as CompositionVariable);
  });
  return { variables, findings };
}

type Problem = Pick<DeclarationFinding, "code" | "message">;

function checkDeclaration(entry: JsonValue, index: number): Problem[] {
  if (!isObject(entry)) {
    return [{ code: "variable-not-object", message: `declaration #${index + 1} must be an object, got ${describeValue(entry)}` }];
  }
  const name = isNonEmptyString(entry.id) ? `variable ${quote(entry.id)}` : `declaration #${index + 1}`;
  const problems: Problem[] = [];
  const report = (code: DeclarationFindingCode, detail: string): void => {
    problems.push({ code, message: `${name}: ${detail}` });
  };

  for (const field of REQUIRED_FIELDS) {
    if (!Object.hasOwn(entry, field)) {
      report("variable-missing-field", `"${field}" is missing; every declaration needs "id", "type", "label" and "default"`);
    }
  }
  if (Object.hasOwn(entry, "id") && !isNonEmptyString(entry.id)) {
    report("variable-invalid-field", `"id" must be a non-empty string, got ${describeValue(entry.id)}`);
  }
  if (Object.hasOwn(entry, "label") && typeof entry.label !== "string") {
    report("variable-invalid-field", `"label" must be a string, got ${describeValue(entry.label)}`);
  }
  if (!Object.hasOwn(entry, "type")) return problems;
  if (!VARIABLE_TYPES.includes(entry.type as VariableType)) {
    report("variable-unknown-type", `type ${describeValue(entry.type)} is not one of ${VARIABLE_TYPES.join(", ")}`);
    return problems;
  }

  const type = entry.type as VariableType;
  for (const [field, expected] of Object.entries(OPTIONAL_FIELDS[type])) {
    if (Object.hasOwn(entry, field) && !FIELD_CHECKS[expected].test(entry[field])) {
      report("variable-invalid-field", `"${field}" must be ${FIELD_CHECKS[expected].description}, got ${describeValue(entry[field])}`);
    }
  }
  const min = finiteNumber(entry.min);
  const max = finiteNumber(entry.max);
  if (type === "number") {
    if (min !== undefined && max !== undefined && min > max) report("variable-min-above-max", `min ${min} is greater than max ${max}`);
    const step = finiteNumber(entry.step);
    if (step !== undefined && step <= 0) report("variable-invalid-step", `step ${step} must be greater than 0`);
  }
  const options = type === "enum" ? enumOptions(entry.options) : undefined;
  if (type === "enum" && options === undefined) {
    report("variable-invalid-options", 'an enum needs "options": a non-empty array of {"value": string, "label": string} with distinct values');
  }

  if (!Object.hasOwn(entry, "default")) return problems;
  const value = entry.default;
  if (!matchesVariableType({ type }, value)) {
    report("variable-default-mismatch", `default ${describeValue(value)} is not ${describeVariableType({ type })}`);
  } else if (typeof value === "number" && min !== undefined && value < min) {
    report("variable-default-mismatch", `default ${value} is below min ${min}`);
  } else if (typeof value === "number" && max !== undefined && value > max) {
    report("variable-default-mismatch", `default ${value} is above max ${max}`);
  } else if (type === "string" && typeof value === "string" && typeof entry.maxLength === "number" && value.length > entry.maxLength) {
    report("variable-default-mismatch", `default is ${value.length} characters long, over maxLength ${entry.maxLength}`);
  } else if (options !== undefined && !options.some((option) => option.value === value)) {
    report("variable-default-mismatch", `default ${describeValue(value)} is not one of the options ${describeEnumOptions(options)}`);
  }
  return problems;
}

const FIELD_CHECKS = {
  string: { test: (value: unknown) => typeof value === "string", description: "a string" },
  number: { test: (value: unknown) => finiteNumber(value) !== undefined, description: "a number" },
  count: { test: (value: unknown) => Number.isInteger(value) && (value as number) >= 0, description: "a whole number 0 or more" },
} as const;

const OPTIONAL_FIELDS: Record<VariableType, Record<string, keyof typeof FIELD_CHECKS>> = {
  string: { placeholder: "string", maxLength: "count" },
  number: { min: "number", max: "number", step: "number", unit: "string" },
  color: {},
  boolean: {},
  // An enum's options have a check and a message of their own (enumOptions).
  enum: {},
};

function enumOptions(value: JsonValue | undefined): Array<{ value: string; label: string }> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const seen = new Set<string>();
  for (const option of value) {
    if (!isObject(option) || typeof option.value !== "string" || typeof option.label !== "string" || seen.has(option.value)) {
      return undefined;
    }
    seen.add(option.value);
  }
  return value as Array<{ value: string; label: string }>;
}

function isObject(value: JsonValue | undefined): value is Entry {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
