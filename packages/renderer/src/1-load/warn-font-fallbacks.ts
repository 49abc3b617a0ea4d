import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FontFallback } from "../page/font-fallback.js";
import { familySlug, FONT_PACKAGE_CODE } from "@compose/core";
import { installedPackageOf, type InstalledFontPackage } from "../web/local/fontsource.js";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The 1-based line of `text` that sets a font to `family`, else the first that names it. */
function lineNaming(text: string, family: string): number | undefined {
  const lines = text.split("\n");
  const name = escapeRegExp(family);
  const declaration = new RegExp(`font(-family)?\\s*:[^;{}]*${name}|family=${name.replace(/\\? /g, "[+ ]")}`, "i");
  const index = lines.findIndex((line) => declaration.test(line));
  if (index >= 0) return index + 1;
  const mention = lines.findIndex((line) => line.toLowerCase().includes(family.toLowerCase()));
  return mention >= 0 ? mention + 1 : undefined;
}

/**
 * Where the project asks for `family` in the document at `documentUrl`: its file and line, or a
 * stylesheet of the project it links; the document alone when a script set it.
 */
async function whereUsed(fallback: FontFallback, projectRoot: string, baseUrl: string): Promise<string> {
  if (!fallback.documentUrl.startsWith(baseUrl)) return fallback.documentUrl;
  const file = decodeURIComponent(fallback.documentUrl.slice(baseUrl.length).split(/[?#]/)[0]!);
  const html = await readFile(join(projectRoot, file), "utf8").catch(() => "");
  const line = lineNaming(html, fallback.family);
  if (line !== undefined) return `${file}:${line}`;
  for (const [, href] of html.matchAll(/<link[^>]+href=["']([^"':?#]+\.css)["']/gi)) {
    const sheet = join(file, "..", href!);
    const found = lineNaming(await readFile(join(projectRoot, sheet), "utf8").catch(() => ""), fallback.family);
    if (found !== undefined) return `${sheet}:${found}`;
  }
  return `${file}, set by a script`;
}

/** Where the fonts a page asks for come from: the project and its server, and the font packages it has. */
export interface FontSources {
  projectRoot: string;
  baseUrl: string;
  installed: InstalledFontPackage[];
}

/** What would give `family` a font: its package, or a repair of the one the project has (which could not be used). */
function remedy(family: string, installed: InstalledFontPackage[]): string {
  const had = installedPackageOf(family, installed);
  if (had) {
    return `the project's package ${had.shown} has no face the browser could draw (its ${FONT_PACKAGE_CODE} warnings name the files at fault; reinstalling the package repairs damaged files)`;
  }
  return `add it with compose fonts add ${familySlug(family)}, or give it an @font-face`;
}

/** A font-fallback warning for each family a page asked for and did not get (its fontFallbacks()), once per family. */
export async function warnOfFontFallbacks(
  fallbacks: readonly FontFallback[],
  sources: FontSources,
  warn: (code: string, message: string) => void,
): Promise<void> {
  const told = new Set<string>();
  for (const fallback of fallbacks) {
    const key = fallback.family.toLowerCase();
    if (told.has(key)) continue;
    told.add(key);
    const where = await whereUsed(fallback, sources.projectRoot, sources.baseUrl);
    const drawn = fallback.drawnWith[0] ?? "another font";
    warn(
      "font-fallback",
      `font family "${fallback.family}" (${where}) has no font, so its text is drawn with ${drawn}: ${remedy(fallback.family, sources.installed)}`,
    );
  }
}
