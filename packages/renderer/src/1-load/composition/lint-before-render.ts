import { basename, dirname, join } from "node:path";
import { lintProject, plural, type LintFinding } from "@compose/core";
import { projectAssetCheck } from "./project-asset-check.js";
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
 * A missing asset is refused unless the render allows missing assets, which it then warns of as
 * the page fails to load it.
 */
export async function refuseLintErrors(file: string, options: { allowMissingAssets?: boolean; signal?: AbortSignal } = {}): Promise<void> {
  const projectDir = dirname(file);
  const check = projectAssetCheck(projectDir);
  const findings = await lintProject(basename(file), projectTextLoader(projectDir, projectDir, options.signal), createSubCompositionResolver("."), {
    assets: { check: (path) => check(join(projectDir, path)) },
  });
  const errors = findings.filter((finding) => finding.severity === "error" && !(options.allowMissingAssets && finding.code === "missing-asset"));
  const first = errors[0];
  if (!first) return;
  const hint = first.code === "missing-asset" ? "; fix the reference, or render with --allow-missing-assets to go ahead without it" : "";
  const more = errors.length > 1 ? `; ${plural(errors.length - 1, "more error")}: run compose lint` : "";
  throw refusal(first.code, first.message, first, `${hint}${more}`);
}
