import type { AttributeText, SourceLocation } from "../html/types.js";
import { createLineIndex } from "../text/line-index.js";

export type LocateInAttribute = (attribute: AttributeText, offsetInValue: number | undefined) => SourceLocation;

/**
 * Maps an offset inside an attribute value (a JSON error, say) to the file. Falls back to the
 * attribute itself when the value is not spelled literally in the source. The line index is built
 * on first use: most files have nothing to locate.
 */
export function createLocateInAttribute(html: string): LocateInAttribute {
  let lineOf: ReturnType<typeof createLineIndex> | undefined;
  return (attribute, offsetInValue) => {
    if (attribute.valueOffset === undefined || offsetInValue === undefined) return attribute.loc;
    const offset = attribute.valueOffset + offsetInValue;
    lineOf ??= createLineIndex(html);
    return { ...lineOf(offset), offset };
  };
}
