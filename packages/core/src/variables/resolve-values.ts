import type { CompositionVariable, VariableValues } from "./types.js";

/**
 * Merges value layers, lowest precedence first, on top of the declared defaults. A key that is
 * absent (or undefined) in a layer falls through to the layer below. Undeclared keys pass through:
 * validation warns about them, resolution does not drop what the caller asked for.
 */
export function resolveVariableValues(
  declarations: CompositionVariable[],
  ...layers: Array<VariableValues | undefined>
): Record<string, unknown> {
  const merged = new Map<string, unknown>(declarations.map((declaration) => [declaration.id, declaration.default]));
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value !== undefined) merged.set(key, value);
    }
  }
  // fromEntries defines properties, so a "__proto__" key stays data instead of replacing the prototype.
  return Object.fromEntries(merged);
}
