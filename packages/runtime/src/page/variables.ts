import { parseVariableDeclarations, parseVariableValues, resolveVariableValues, type VariableValues } from "@compose/core";
import { findCompositionRoot } from "./composition-root.js";

/**
 * getVariables() for this frame. Everything is read when it is called, from the live DOM: the
 * runtime is injected before <html> exists, and scripts may set attributes before they ask.
 *
 * Layers, lowest precedence first: declared defaults (data-composition-variables on <html>, or
 * on the composition element), then either the host's data-variable-values when this frame is a
 * sub-composition (the host is the element with data-composition-src in the parent document that
 * is or contains this frame's iframe), or the CLI overrides when it is the top-level composition.
 */
export function createVariableReader(cliOverrides: VariableValues | undefined): () => VariableValues {
  return () => {
    const declarations =
      document.documentElement?.getAttribute("data-composition-variables") ?? findCompositionRoot()?.getAttribute("data-composition-variables");
    const { variables } = parseVariableDeclarations(declarations);
    const host = window.frameElement?.closest("[data-composition-src]");
    return resolveVariableValues(variables, host ? hostValues(host) : cliOverrides);
  };
}

function hostValues(host: Element): VariableValues | undefined {
  const json = host.getAttribute("data-variable-values");
  if (json === null) return undefined;
  const name = host.getAttribute("data-composition-id") ?? host.getAttribute("data-composition-src");
  const parsed = parseVariableValues(json, `data-variable-values of "${name}"`);
  if ("values" in parsed) return parsed.values;
  // A page error, so the renderer fails the render instead of silently using the defaults.
  reportError(new SyntaxError(parsed.finding.message));
  return undefined;
}
