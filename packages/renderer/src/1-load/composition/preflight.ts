import { FORMAT_TABLE, oddSizeMessage, validateVariableValues, type RenderOptions } from "@compose/core";
import { refuseLintErrors, refusal } from "./lint-before-render.js";
import type { SourceComposition } from "./read-composition.js";
import type { RenderEvent } from "@compose/core";
import { RenderError } from "../../common/render-error.js";
import type { PixelSize } from "../../common/scaled-size.js";

/** Everything that can be refused before a browser starts; `frames` is the size of the output's frames. */
export async function preflight(
  composition: SourceComposition,
  frames: PixelSize,
  options: RenderOptions,
  optionName: (field: string) => string,
  emit: (event: RenderEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (options.docker) {
    // The CLI runs a docker render as a plain local render inside the container.
    throw new RenderError(
      "invalid-composition",
      "docker: render() renders with this machine's browser and ffmpeg; container mode is `compose render --docker`",
    );
  }
  await refuseLintErrors(composition.file, { allowMissingAssets: options.allowMissingAssets, signal });
  checkVariables(composition, options, optionName, emit);
  checkDimensions(composition, frames, options, optionName);
}

/** Malformed declarations are lint errors, refused above; what is left is the values' fit. */
function checkVariables(
  composition: SourceComposition,
  options: RenderOptions,
  optionName: (field: string) => string,
  emit: (event: RenderEvent) => void,
): void {
  const issues = validateVariableValues(composition.metadata.variables, options.variables ?? {});
  if (issues.length === 0) return;
  if (options.strictVariables) {
    const list = issues.map((issue) => `${issue.code}: ${issue.problem}`).join("; ");
    throw new RenderError("invalid-variables", `variables refused by ${optionName("strictVariables")}, so the render stopped: ${list}`);
  }
  for (const issue of issues) emit({ type: "warning", code: issue.code, message: issue.message });
}

/** A 4:2:0 format takes even sizes only: the composition's own, or at a scale the size it renders at. */
function checkDimensions(composition: SourceComposition, frames: PixelSize, options: RenderOptions, optionName: (field: string) => string): void {
  if (!FORMAT_TABLE[options.format].subsampled || (frames.width % 2 === 0 && frames.height % 2 === 0)) return;
  const scaled = options.scale !== 1 ? { option: optionName("scale"), factor: options.scale } : undefined;
  throw refusal("odd-size", oddSizeMessage(composition.id, frames.width, frames.height, scaled));
}
