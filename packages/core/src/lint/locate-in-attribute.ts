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

export type ExplainJsonInAttribute = (
  attribute: AttributeText,
  message: string,
  offsetInValue: number | undefined,
) => { location: SourceLocation; message: string };

/**
 * Places a JSON error found in an attribute value and names the likely cause when it is a quote.
 * When the attribute's own quote character appears inside the JSON (an apostrophe in a
 * '…'-quoted attribute, a " in a "…"-quoted one), HTML ends the attribute there and the JSON is
 * cut short: the error points at that quote. A bare " inside a JSON string ends the string.
 */
export function createExplainJsonInAttribute(html: string, locate: LocateInAttribute): ExplainJsonInAttribute {
  return (attribute, message, offsetInValue) => {
    const start = attribute.valueOffset;
    if (start !== undefined) {
      const quote = html[start - 1];
      const end = start + attribute.text.length;
      const after = html[end + 1];
      if ((quote === "'" || quote === '"') && html[end] === quote && after !== undefined && !/[\s>/]/.test(after)) {
        const escaped = quote === "'" ? "&#39; (or a typographic ’)" : "&quot;, or quote the attribute with '";
        const next = html.slice(end + 1, end + 13).split("\n")[0];
        return {
          location: locate(attribute, attribute.text.length),
          message: `${message}; the attribute ends at this ${quote}, before "${next}": a ${quote} inside a ${quote}…${quote}-quoted attribute ends it, so write it as ${escaped}`,
        };
      }
    }
    const location = locate(attribute, offsetInValue);
    if (offsetInValue !== undefined && unescapedQuoteBefore(attribute.text, offsetInValue)) {
      return { location, message: `${message}; a " inside a JSON string ends the string, so write it as \\" (or “ ”)` };
    }
    return { location, message };
  };
}

/** Whether the text at `offset` follows a closing " directly, as when a string held a bare ". */
function unescapedQuoteBefore(text: string, offset: number): boolean {
  const before = text.slice(0, offset).trimEnd();
  return before.endsWith('"') && /^[\p{L}\p{N}]/u.test(text.slice(offset));
}
