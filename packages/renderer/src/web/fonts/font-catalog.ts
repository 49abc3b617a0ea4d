import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { isGenericFontFamily, type FontPackageProblem, type FontSource } from "@compose/core";
import { readProjectFile } from "../../common/project-file.js";
import { installedPackageOf, projectFontPackages } from "../local/fontsource.js";
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
      const family = /font-family\s*:\s*([^;]+)/i
        .exec(block!)?.[1]
        ?.trim()
        .replace(/^(["'])(.*)\1$/, "$2");
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
    return stdout
      .split("\n")
      .flatMap((line) => line.split(","))
      .map((family) => family.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** How a family named in the project is drawn, and with which font when that is known. */
export interface FontResolution {
  source: FontSource;
  drawnWith: string | undefined;
}

/** What the project can draw: how each family named in it resolves, and whether it is drawn as itself. */
export interface FontCatalog {
  /**
   * How a family resolves, in the order the browser looks: a generic keyword and a name of the
   * default set are drawn with the set's font; a family of the project's @font-face rules or Google
   * Fonts stylesheets, or of its font packages, with that web font; a family of this machine's
   * fonts with that font; else none of its name.
   */
  resolve(family: string): FontResolution;
  /**
   * Whether the family is drawn as itself: any answer but none. A family of a package the project
   * has but that cannot be used counts as known: `problems` names that package instead.
   */
  known(family: string): boolean;
  /** The files of the project's font packages that keep a package, or a face, from being used, under the project as the caller shows it. */
  problems: FontPackageProblem[];
}

/** The font catalog of the project at `projectRoot`, shown as `shownRoot`: its font packages, @font-face rules and Google Fonts stylesheets, the default set, this machine's fonts. */
export async function fontFamilyCatalog(projectRoot: string, shownRoot = projectRoot): Promise<FontCatalog> {
  const [packages, files, system] = await Promise.all([
    projectFontPackages({ root: projectRoot, parents: true }, { checkFontFiles: true }),
    familiesOfFiles(projectRoot),
    systemFamilies(),
  ]);
  const lower = (families: string[]) => new Set(families.map((family) => family.toLowerCase()));
  const [inPackages, inFiles, inSystem] = [lower(packages.rules.map((rule) => rule.family)), lower(files), lower(system)];
  const resolve = (family: string): FontResolution => {
    const name = family.toLowerCase();
    const ours = defaultFamilyFor(family);
    if (isGenericFontFamily(family)) return { source: "generic", drawnWith: ours };
    if (inFiles.has(name)) return { source: "font-face", drawnWith: family };
    if (inPackages.has(name)) return { source: "package", drawnWith: family };
    if (ours !== undefined) return { source: "default", drawnWith: ours };
    if (inSystem.has(name)) return { source: "system", drawnWith: family };
    return { source: "none", drawnWith: undefined };
  };
  return {
    resolve,
    known: (family) => resolve(family).source !== "none" || installedPackageOf(family, packages.installed) !== undefined,
    problems: packages.problems.map((problem) => ({ ...problem, file: join(shownRoot, problem.file) })),
  };
}
