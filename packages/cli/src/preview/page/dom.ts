/** The page's element with this id; the page's HTML has every id the modules ask for. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the preview page has no #${id}`);
  return found as T;
}

export function $input(id: string): HTMLInputElement {
  return $<HTMLInputElement>(id);
}

export function $select(id: string): HTMLSelectElement {
  return $<HTMLSelectElement>(id);
}

type AttributeValue = string | number | boolean | undefined | null;

/** A new element with these attributes (false, null and undefined leave one out) and children. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, AttributeValue> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

/**
 * Calls `handle` for each key pressed while the focus is not in a text field, a list or a button,
 * without Alt, Ctrl or Meta; a key it acts on (it returns true) does nothing else.
 */
export function onShortcut(handle: (event: KeyboardEvent) => boolean): void {
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLElement && target.closest("input, select, textarea, button") !== null;
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    if (handle(event)) event.preventDefault();
  });
}
