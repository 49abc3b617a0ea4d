import { parse } from "parse5";

type Located = { sourceCodeLocation?: { startTag?: { endOffset: number }; endOffset?: number } | null };
type ParentNode = { nodeName: string; childNodes?: Array<ParentNode & Located> } & Located;

/**
 * Where a script must go to be the first one of the document: right after the `<head>` start tag;
 * without one, after `<html>`; without that, after the doctype; else at the very beginning. In
 * each case the HTML parser puts it first into <head>, before any of the page's own scripts.
 */
export function headScriptOffset(html: string): number {
  const document = parse(html, { sourceCodeLocationInfo: true }) as unknown as ParentNode;
  const nodes = document.childNodes ?? [];
  const htmlElement = nodes.find((node) => node.nodeName === "html");
  const head = htmlElement?.childNodes?.find((node) => node.nodeName === "head");
  const headTag = head?.sourceCodeLocation?.startTag;
  if (headTag) return headTag.endOffset;
  const htmlTag = htmlElement?.sourceCodeLocation?.startTag;
  if (htmlTag) return htmlTag.endOffset;
  const doctype = nodes.find((node) => node.nodeName === "#documentType");
  return doctype?.sourceCodeLocation?.endOffset ?? 0;
}

/** The HTML with `markup` (a script element) inserted as the first script of its head. */
export function injectFirstScript(html: string, markup: string): string {
  const text = html.startsWith("\uFEFF") ? html.slice(1) : html;
  const offset = headScriptOffset(text);
  return text.slice(0, offset) + markup + text.slice(offset);
}
