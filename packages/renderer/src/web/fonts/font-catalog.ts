import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { readProjectFile } from "../../common/project-file.js";
import { installedFontFamilies } from "../local/fontsource.js";
import { parseGoogleFontsUrl } from "../local/google-fonts-url.js";
import { defaultFamilyFor } from "./default-fonts.js";

/** How many of the project's HTML and CSS files are read for @font-face rules and stylesheet links. */
const MAX_FILES = 500;

/** The HTML and CSS files of a project, outside node_modules and hidden folders. */
async function styleFiles(dir: string, found: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (found.length >= MAX_FILES || entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await styleFiles(path, found);
    else if (/\.(html?|css)$/i.test(entry.name)) found.push(path);
  }
  return found;
}

/** The text of each of the project's HTML and CSS files. */
async function* styleTexts(projectRoot: string): AsyncGenerator<string> {
  for (const file of await styleFiles(projectRoot)) {
    // Under the project-file rule: a FIFO, a device, a link out or a huge file is not read.
    yield (await readProjectFile(projectRoot, relative(projectRoot, file)).catch(() => undefined))?.toString("utf8") ?? "";
  }
}

/** Which of `names` the project's HTML and CSS files mention (case-insensitively), as written in `names`. */
export async function namesMentioned(projectRoot: string, names: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for await (const text of styleTexts(projectRoot)) {
    const lower = text.toLowerCase();
    for (const name of names) if (lower.includes(name.toLowerCase())) found.add(name);
  }
  return found;
}

/** Families the project's own files give fonts to: @font-face rules and Google Fonts stylesheet URLs. */
async function familiesOfFiles(projectRoot: string): Promise<string[]> {
  const families: string[] = [];
  for await (const text of styleTexts(projectRoot)) {
    for (const [, block] of text.matchAll(/@font-face\s*{([^}]*)}/gi)) {
      const family = /font-family\s*:\s*([^;]+)/i.exec(block!)?.[1]?.trim().replace(/^(["'])(.*)\1$/, "$2");
      if (family) families.push(family);
    }
    for (const [url] of text.matchAll(/https?:\/\/fonts\.googleapis\.com\/css2?\?[^"')\s]+/g)) {
      for (const { family } of parseGoogleFontsUrl(url.replace(/&amp;/g, "&")) ?? []) families.push(family);
    }
  }
  return families;
}

/** The families fontconfig lists on this machine; none when fc-list is missing. */
async function systemFamilies(): Promise<string[]> {
  try {
    const { stdout } = await promisify(execFile)("fc-list", [":", "family"], { maxBuffer: 16 * 1024 * 1024 });
    return stdout.split("\n").flatMap((line) => line.split(",")).map((family) => family.trim()).filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Whether a family named in the project can be drawn as itself: a name of the default set, a
 * family of the project's font packages, @font-face rules or Google Fonts stylesheets, or one of
 * this machine's fonts.
 */
export async function fontFamilyCatalog(projectRoot: string): Promise<(family: string) => boolean> {
  const [packages, files, system] = await Promise.all([installedFontFamilies({ root: projectRoot, parents: true }), familiesOfFiles(projectRoot), systemFamilies()]);
  const known = new Set([...packages, ...files, ...system].map((family) => family.toLowerCase()));
  return (family) => defaultFamilyFor(family) !== undefined || known.has(family.toLowerCase());
}
