import { readFile } from "node:fs/promises";
import { extractCompositionMetadata, type CompositionMetadata } from "@compose/core";
import { RenderError } from "../../common/render-error.js";

export interface SourceComposition {
  file: string;
  id: string;
  width: number;
  height: number;
  metadata: CompositionMetadata;
}

/** Reads what a render must know before a browser starts: the root's id and size, the variables. */
export async function readComposition(file: string): Promise<SourceComposition> {
  const html = await readFile(file, "utf8");
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
