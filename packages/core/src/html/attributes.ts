import type { SourceLocation, AttributeText } from "./types.js";
import type { Element } from "./walk-elements.js";

export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

const START_OF_FILE: SourceLocation = { line: 1, column: 1, offset: 0 };

/** Where an element's start tag begins; elements the parser made up (an implied <html>) have no location. */
export function elementLocation(element: Element): SourceLocation {
  const location = element.sourceCodeLocation;
  return location ? { line: location.startLine, column: location.startCol, offset: location.startOffset } : START_OF_FILE;
}

export function attributeLocation(element: Element, name: string): SourceLocation {
  const location = element.sourceCodeLocation?.attrs?.[name];
  return location ? { line: location.startLine, column: location.startCol, offset: location.startOffset } : elementLocation(element);
}

export function attributeText(element: Element, name: string, html: string): AttributeText | undefined {
  const text = attribute(element, name);
  if (text === undefined) return undefined;
  return { name, text, loc: attributeLocation(element, name), valueOffset: literalValueOffset(element, name, text, html) };
}

function literalValueOffset(element: Element, name: string, text: string, html: string): number | undefined {
  const location = element.sourceCodeLocation?.attrs?.[name];
  if (!location) return undefined;
  const skipSpace = (from: number): number => {
    while (/\s/.test(html[from] ?? "")) from++;
    return from;
  };
  let offset = skipSpace(location.startOffset + name.length);
  if (html[offset] !== "=") return undefined;
  offset = skipSpace(offset + 1);
  if (html[offset] === '"' || html[offset] === "'") offset++;
  return html.startsWith(text, offset) ? offset : undefined;
}
