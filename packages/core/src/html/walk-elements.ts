import type { DefaultTreeAdapterTypes } from "parse5";

export type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

function isElement(node: DefaultTreeAdapterTypes.ChildNode): node is Element {
  return "tagName" in node;
}

/**
 * Yields the element descendants of `parent` in document order. Iterative, because a 10 MB file can
 * nest elements far deeper than the call stack allows. A <template>'s content is not in its child
 * list; it is entered only when asked, since it is inert markup unless it wraps a sub-composition.
 */
export function* walkElements(parent: ParentNode, options: { intoTemplates: boolean }): Generator<Element> {
  const stack: Element[] = [];
  const pushChildren = (node: ParentNode): void => {
    const children = "content" in node && node.tagName === "template" ? (options.intoTemplates ? node.content.childNodes : []) : node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]!;
      if (isElement(child)) stack.push(child);
    }
  };
  pushChildren(parent);
  for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
    yield element;
    pushChildren(element);
  }
}
