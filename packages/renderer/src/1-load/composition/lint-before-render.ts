import { basename, dirname } from "node:path";
import { lintProject, type LintFinding } from "@compose/core";
import { RenderError } from "../../common/render-error.js";
import { projectTextLoader } from "./project-text.js";
import { createSubCompositionResolver } from "./resolve-sub-composition.js";

/** How render refuses a finding: its code and message as lint gives them, and where it is. */
export function refusal(code: string, message: string, where?: Pick<LintFinding, "file" | "line" | "column">, more = ""): RenderError {
  const location = where ? ` (${where.file}:${where.line}:${where.column})` : "";
  return new RenderError("invalid-composition", `[${code}] ${message}${location}${more}`);
}

/**
 * Lints the composition and the files it embeds as `compose lint` does, with paths from the
 * project directory, and refuses the render on the first error: render and lint share one rule set.
 */
export async function refuseLintErrors(file: string, signal?: AbortSignal): Promise<void> {
  const projectDir = dirname(file);
  const findings = await lintProject(basename(file), projectTextLoader(projectDir, projectDir, signal), createSubCompositionResolver("."));
  const errors = findings.filter((finding) => finding.severity === "error");
  const first = errors[0];
  if (!first) return;
  const more = errors.length > 1 ? `; ${errors.length - 1} more error${errors.length === 2 ? "" : "s"}: run compose lint` : "";
  throw refusal(first.code, first.message, first, more);
}
