import type { CompositionVariable, VariableValues } from "../variables/types.js";
import { resolveVariableValues } from "../variables/resolve-values.js";

/** What a batch's output template may name: the row's index, the format's extension and any declared variable. */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The longest a variable's value stands in a file name, in characters. */
const MAX_NAME_PART = 80;

/**
 * A value made safe for a file name: letters, digits, `.`, `_` and `-` kept, any other run of
 * characters one `-`, no leading dot (no hidden files, no `..`), at most MAX_NAME_PART characters.
 */
export function fileNamePart(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  const safe = text
    .normalize("NFKD")
    // Accents come apart from their letters under NFKD; dropping them keeps "Renée" as "Renee".
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .replace(/-+$/, "")
    .slice(0, MAX_NAME_PART);
  return safe === "" ? "_" : safe;
}

/** Why a template cannot name a batch's outputs (a placeholder that is neither {index}, {ext} nor a declared variable), or undefined. */
export function outputTemplateProblem(template: string, declarations: readonly CompositionVariable[]): string | undefined {
  const known = new Set(["index", "ext", ...declarations.map((declaration) => declaration.id)]);
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!known.has(name!)) {
      const variables = declarations.map((declaration) => `{${declaration.id}}`).join(", ");
      return `names {${name}}, which is not {index}, {ext} or a declared variable${variables ? ` (${variables})` : " (the composition declares none)"}`;
    }
  }
  return undefined;
}

/** `{index}` for row `index` (0-based) of `count`: the row number from 1, zero-padded to the count's width. */
export function rowIndexText(index: number, count: number): string {
  return String(index + 1).padStart(String(count).length, "0");
}

/**
 * The output of one row: the template with {index}, {ext} (the format's extension without its dot,
 * empty for a folder) and each variable's resolved value (the row's, else the declared default)
 * made safe for a file name.
 */
export function expandOutputTemplate(
  template: string,
  row: { index: number; count: number; values: VariableValues },
  declarations: CompositionVariable[],
  extension: string,
): string {
  const values = resolveVariableValues(declarations, row.values);
  return template.replace(PLACEHOLDER, (_, name: string) => {
    if (name === "index") return rowIndexText(row.index, row.count);
    if (name === "ext") return extension.replace(/^\./, "");
    return fileNamePart(values[name]);
  });
}

/** The first two rows (1-based) whose outputs are the same path, as `compare` keys them; undefined when every row has its own. */
export function sharedOutput(
  outputs: readonly string[],
  key: (output: string) => string = (output) => output,
): { first: number; second: number; output: string } | undefined {
  const seen = new Map<string, number>();
  for (const [index, output] of outputs.entries()) {
    const earlier = seen.get(key(output));
    if (earlier !== undefined) return { first: earlier + 1, second: index + 1, output };
    seen.set(key(output), index);
  }
  return undefined;
}
