import { quote } from "../text/quote.js";
import type { CompositionVariable } from "./types.js";

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** Whether `value` has the shape the variable's type requires (enum membership is checked apart). */
export function matchesVariableType(variable: Pick<CompositionVariable, "type">, value: unknown): boolean {
  switch (variable.type) {
    case "string":
    case "enum":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "color":
      return typeof value === "string" && COLOR.test(value);
    case "boolean":
      return typeof value === "boolean";
  }
}

export function describeVariableType(variable: Pick<CompositionVariable, "type">): string {
  return variable.type === "color" ? "a #rrggbb color" : variable.type === "enum" ? "a string" : `a ${variable.type}`;
}

export function describeEnumOptions(options: ReadonlyArray<{ value: string }>): string {
  return options.map((option) => quote(option.value)).join(", ");
}

/** A short rendering of any value for messages: strings quoted, objects by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}
