import { fontFamilyUses, type CompositionInfoReport } from "@compose/core";
import type { FontResolution } from "@compose/renderer/project";

type FontFacts = CompositionInfoReport["fonts"];

/**
 * The font families the composition's files name (generic keywords too), each once in the order
 * first named, with how each resolves. A page loaded knows better: a family its text asked for and
 * no font of that name drew has none, whatever the files suggest, and is listed even when only a
 * script named it.
 */
export function fontFacts(
  texts: Iterable<string>,
  resolve: (family: string) => FontResolution,
  fallbacks: ReadonlyArray<{ family: string; drawnWith: string | undefined }> = [],
): FontFacts {
  const facts = new Map<string, FontFacts[number]>();
  for (const text of texts) {
    for (const { family } of fontFamilyUses(text)) {
      if (facts.has(family.toLowerCase())) continue;
      const { source, drawnWith } = resolve(family);
      facts.set(family.toLowerCase(), { family, source, drawnWith: drawnWith ?? null });
    }
  }
  for (const { family, drawnWith } of fallbacks) {
    facts.set(family.toLowerCase(), { family: facts.get(family.toLowerCase())?.family ?? family, source: "none", drawnWith: drawnWith ?? null });
  }
  return [...facts.values()];
}
