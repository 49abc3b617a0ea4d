import type { CompositionVariable, VariableValues } from "./types.js";
import { valueProblem } from "./validate-values.js";

/**
 * Merges value layers, lowest precedence first, on top of the declared defaults. A key that is
 * absent (or undefined) in a layer falls through to the layer below, and so does a value that
 * validation refuses (wrong type, outside an enum's options): the composition never sees a value
 * its declaration does not allow. Undeclared keys are ignored. validateVariableValues says so.
 */
export function resolveVariableValues(declarations: CompositionVariable[], ...layers: Array<VariableValues | undefined>): Record<string, unknown> {
  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  const merged = new Map<string, unknown>(declarations.map((declaration) => [declaration.id, declaration.default]));
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      const declaration = byId.get(key);
      if (value !== undefined && declaration && !valueProblem(declaration, value)) merged.set(key, value);
    }
  }
  // fromEntries defines properties, so a "__proto__" key stays data instead of replacing the prototype.
  return Object.fromEntries(merged);
}
