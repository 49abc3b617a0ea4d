/**
 * The composition element, found as core's parser finds it: the first element with
 * data-composition-id and a size that is not a sub-composition host (hosts carry
 * data-composition-src), else the first with data-composition-id, so that a missing size is
 * reported as such. It may be <html> itself.
 */
export function findCompositionRoot(): Element | null {
  const candidate = "[data-composition-id]:not([data-composition-src])";
  return document.querySelector(`${candidate}:is([data-width], [data-height])`) ?? document.querySelector(candidate);
}

/** A numeric data-* attribute, or undefined when absent or not a number. */
export function numberAttribute(element: Element, name: string): number | undefined {
  const text = element.getAttribute(name);
  if (text === null || text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
