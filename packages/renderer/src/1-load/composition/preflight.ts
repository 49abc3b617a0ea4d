import { FORMAT_TABLE, oddSizeMessage, validateVariableValues, type RenderOptions } from "@compose/core";
import { refuseLintErrors, refusal } from "./lint-before-render.js";
import type { SourceComposition } from "./read-composition.js";
import type { RenderEvent } from "@compose/core";
import { RenderError } from "../../common/render-error.js";

/** Everything that can be refused before a browser starts. */
export async function preflight(
  composition: SourceComposition,
  options: RenderOptions,
  optionName: (field: string) => string,
  emit: (event: RenderEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (options.docker) {
    // The CLI runs a docker render as a plain local render inside the container.
    throw new RenderError("invalid-composition", "docker: render() renders with this machine's browser and ffmpeg; container mode is `compose render --docker`");
  }
  await refuseLintErrors(composition.file, { allowMissingAssets: options.allowMissingAssets, signal });
  checkVariables(composition, options, optionName, emit);
  checkDimensions(composition, options);
}

/** Malformed declarations are lint errors, refused above; what is left is the values' fit. */
function checkVariables(composition: SourceComposition, options: RenderOptions, optionName: (field: string) => string, emit: (event: RenderEvent) => void): void {
  const issues = validateVariableValues(composition.metadata.variables, options.variables ?? {});
  if (issues.length === 0) return;
  if (options.strictVariables) {
    const list = issues.map((issue) => `${issue.code}: ${issue.problem}`).join("; ");
    throw new RenderError("invalid-variables", `variables refused by ${optionName("strictVariables")}, so the render stopped: ${list}`);
  }
  for (const issue of issues) emit({ type: "warning", code: issue.code, message: issue.message });
}

function checkDimensions(composition: SourceComposition, options: RenderOptions): void {
  if (FORMAT_TABLE[options.format].subsampled && (composition.width % 2 !== 0 || composition.height % 2 !== 0)) {
    throw refusal("odd-size", oddSizeMessage(composition.id, composition.width, composition.height));
  }
}
