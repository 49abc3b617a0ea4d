import { extractCompositionMetadata, PROJECT_FILE_CODE, type CompositionMetadata } from "@compose/core";
import { RenderError } from "../../common/render-error.js";
import { ProjectFileError } from "../../common/project-file.js";
import { readCompositionText } from "./project-text.js";

export interface SourceComposition {
  file: string;
  id: string;
  width: number;
  height: number;
  metadata: CompositionMetadata;
}

/** Reads what a render must know before a browser starts: the root's id and size, the variables. */
export async function readComposition(file: string, signal?: AbortSignal): Promise<SourceComposition> {
  const html = await readCompositionText(file, signal).catch((error: unknown) => {
    if (error instanceof ProjectFileError) throw new RenderError("invalid-composition", `[${PROJECT_FILE_CODE}] ${error.message}`);
    if (error instanceof Error && !("code" in error)) throw new RenderError("invalid-composition", error.message);
    throw error;
  });
  if (html === undefined) throw new RenderError("invalid-composition", `${file} does not exist`);
  const metadata = extractCompositionMetadata(html);
  const { id, width, height } = metadata;
  if (id === undefined || width === undefined || height === undefined) {
    throw new RenderError(
      "invalid-composition",
      `${file} is not a composition: give one element data-composition-id, data-width and data-height (run compose lint for details)`,
    );
  }
  return { file, id, width, height, metadata };
}
