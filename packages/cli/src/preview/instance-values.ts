import { parse } from "parse5";

type Attribute = { name: string; value: string };
type Node = {
  nodeName: string;
  attrs?: Attribute[];
  childNodes?: Node[];
  content?: Node;
  sourceCodeLocation?: { startTag?: { startOffset: number; endOffset: number; attrs?: Record<string, { startOffset: number; endOffset: number }> } } | null;
};

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` maps host ids to objects of variable values. */
export function isInstanceValues(value: unknown): value is Record<string, Record<string, unknown>> {
  return isPlainObject(value) && Object.values(value).every(isPlainObject);
}

function escapeAttribute(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
}

/**
 * The HTML with the data-variable-values of each sub-composition host named in `instances` (by
 * its data-composition-id) replaced by the values given: what the preview's instance widgets and
 * a render from the preview apply, as if the author had written them.
 */
export function withInstanceValues(html: string, instances: Record<string, Record<string, unknown>>): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const visit = (node: Node): void => {
    const attrs = node.attrs ?? [];
    const id = attrs.find((attr) => attr.name === "data-composition-id")?.value;
    const tag = node.sourceCodeLocation?.startTag;
    if (id !== undefined && attrs.some((attr) => attr.name === "data-composition-src") && tag && Object.hasOwn(instances, id)) {
      const text = `data-variable-values="${escapeAttribute(JSON.stringify(instances[id]))}"`;
      const existing = tag.attrs?.["data-variable-values"];
      if (existing) edits.push({ start: existing.startOffset, end: existing.endOffset, text });
      else {
        // Before the start tag's closing `>` (or `/>`).
        const end = html.slice(tag.startOffset, tag.endOffset).endsWith("/>") ? tag.endOffset - 2 : tag.endOffset - 1;
        edits.push({ start: end, end, text: ` ${text}` });
      }
    }
    for (const child of node.childNodes ?? []) visit(child);
    if (node.content) visit(node.content);
  };
  visit(parse(html, { sourceCodeLocationInfo: true }) as unknown as Node);
  let result = html;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
