import { RenderError } from "../../common/render-error.js";
import { scaledSize, type PixelSize } from "../../common/scaled-size.js";
import type { SourceComposition } from "./read-composition.js";

/**
 * The size of the output's frames: the composition's, drawn at `scale` device pixels per CSS
 * pixel. A scale that would make a fraction of a pixel is refused: Chromium rounds such a size
 * up in BeginFrame mode and to the nearest in screenshot mode, so its frames would not be the
 * size the plan says.
 */
export function frameSizeAt(composition: SourceComposition, scale: number, optionName: (field: string) => string): PixelSize {
  const size = scaledSize(composition, scale);
  if (size) return size;
  const { id, width, height } = composition;
  // Shown as a person writes the product: 105.6, not 105.60000000000001.
  const shown = (side: number) => Number((side * scale).toFixed(4));
  throw new RenderError(
    "invalid-composition",
    `${id} is ${width}x${height} px, which ${optionName("scale")} ${scale} makes ${shown(width)}x${shown(height)}: choose a scale that makes whole pixels of both`,
  );
}
