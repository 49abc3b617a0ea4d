import { readdir, readFile, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isGenericFontFamily } from "@compose/core";
import { cachedDirectory, cacheRoot, keyOf, type CacheEntry } from "../../common/cache.js";
import { packageFontRules, type FontFaceRule } from "../local/fontsource.js";
import type { InstalledPackage } from "../local/npm-package.js";

/** A family of the default set: the npm package it comes from, and the names that resolve to it. */
export interface DefaultFamily {
  family: string;
  package: string;
  /** The package's files that make up the family (one subset of the script a file). */
  files: RegExp;
  /** Generic families and platform names drawn with it. */
  names: string[];
}

/**
 * The default set, chosen for video: Inter, a sans-serif drawn for screens, for the sans-serif and
 * system names; Arimo, Tinos and Cousine, metric-compatible with Arial, Times New Roman and
 * Courier New, for those names, so layouts made with them keep their line breaks.
 */
export const DEFAULT_FAMILIES: readonly DefaultFamily[] = [
  {
    family: "Inter",
    package: "@fontsource-variable/inter",
    files: /-wght-(normal|italic)\.woff2$/,
    names: [
      "sans-serif",
      "sans",
      "system-ui",
      "ui-sans-serif",
      "ui-rounded",
      "-apple-system",
      "BlinkMacSystemFont",
      "Segoe UI",
      "Helvetica Neue",
      "cursive",
      "fantasy",
    ],
  },
  { family: "Arimo", package: "@fontsource/arimo", files: /\.woff2$/, names: ["Arial", "Helvetica"] },
  { family: "Tinos", package: "@fontsource/tinos", files: /\.woff2$/, names: ["serif", "ui-serif", "Times New Roman", "Times"] },
  {
    family: "Cousine",
    package: "@fontsource/cousine",
    files: /\.woff2$/,
    names: ["monospace", "ui-monospace", "Courier New", "Courier", "Menlo", "Monaco", "Consolas", "SF Mono"],
  },
];

/** What the browser draws each generic family with (Page.setFontFamilies). */
export const GENERIC_FAMILIES = {
  standard: "Tinos",
  serif: "Tinos",
  sansSerif: "Inter",
  fixed: "Cousine",
  cursive: "Inter",
  fantasy: "Inter",
  math: "Tinos",
} as const;

/** The family of the default set a name resolves to (case-insensitive), if any. */
export function defaultFamilyFor(name: string): string | undefined {
  const wanted = name.toLowerCase();
  return DEFAULT_FAMILIES.find(({ family, names }) => family.toLowerCase() === wanted || names.some((alias) => alias.toLowerCase() === wanted))?.family;
}

/** Where the system keeps fonts: searched only for what the default set lacks (emoji, scripts beyond Latin, Greek and Cyrillic). */
const SYSTEM_FONT_DIRS = ["<dir>/usr/share/fonts</dir>", "<dir>/usr/local/share/fonts</dir>", '<dir prefix="xdg">fonts</dir>', "<dir>~/.fonts</dir>"];

/** fontconfig writes its own cache of what it found into the entry as browsers use it: not part of the entry. */
const FONTCONFIG_CACHE = "fontconfig-cache";

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The browser's font configuration: the default set's files, the system's fonts for fallback
 * only, and every name of the set bound to it. A system font that bears a default family's name
 * (fonts-inter, fonts-croscore) is renamed as it is scanned, so it never takes that name's place;
 * none of the system's own rules apply.
 */
export function fontconfigXml(dir: string): string {
  const ours = `${dir}/files/`;
  const shadowed = DEFAULT_FAMILIES.map(
    ({ family }) => `  <match target="scan">
    <test name="file" compare="not_contains"><string>${xml(ours)}</string></test>
    <test name="family"><string>${xml(family)}</string></test>
    <edit name="family" mode="assign_replace"><string>${xml(family)} (system)</string></edit>
  </match>`,
  );
  const aliases = DEFAULT_FAMILIES.flatMap(({ family, names }) =>
    names.map((name) => `  <alias binding="strong"><family>${xml(name)}</family><prefer><family>${xml(family)}</family></prefer></alias>`),
  );
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    "<fontconfig>",
    `  <dir>${xml(ours)}</dir>`,
    ...SYSTEM_FONT_DIRS.map((line) => `  ${line}`),
    `  <cachedir>${xml(join(dir, FONTCONFIG_CACHE))}</cachedir>`,
    ...shadowed,
    ...aliases,
    "</fontconfig>",
    "",
  ].join("\n");
}

/** A package of the default set, where compose's own install put it. */
interface FontPackage {
  name: string;
  version: string;
  dir: string;
}

/**
 * Found as Node finds compose's dependencies, not under the rule for a project's packages: the
 * installer's links (pnpm's store, a workspace) are compose's own.
 */
async function packageOf(family: DefaultFamily): Promise<FontPackage> {
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${family.package}/package.json`);
  } catch {
    throw new Error(`the default font package ${family.package} is not installed: reinstall compose`);
  }
  const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
  return { name: family.package, version, dir: dirname(manifest) };
}

/** A package of the default set by its npm name, as the local web reads packages; undefined for any other name. */
export async function defaultFontPackage(name: string): Promise<InstalledPackage | undefined> {
  const family = DEFAULT_FAMILIES.find((candidate) => candidate.package === name);
  if (!family) return undefined;
  const { version, dir } = await packageOf(family);
  return { name, version, dir, shown: name, within: dir };
}

/** The platform names the default set draws (Arial, Segoe UI...): what CSS may name it by, besides the families' own names and the generic keywords. */
export const DEFAULT_PLATFORM_NAMES: readonly string[] = DEFAULT_FAMILIES.flatMap(({ names }) => names.filter((name) => !isGenericFontFamily(name)));

/** The family of the default set a CSS generic keyword draws with (`sans-serif`: Inter), as the render's browser is set up; undefined for any other name. */
export function genericDefaultFamily(keyword: string): string | undefined {
  if (!isGenericFontFamily(keyword)) return undefined;
  return keyword.toLowerCase() === "math" ? GENERIC_FAMILIES.math : defaultFamilyFor(keyword);
}

/**
 * The default set as web fonts, for a browser the renderer does not set up (the preview's):
 * every face of each family, under its own name and under each of `platformNames` drawn with it.
 * Their files are named by CDN URLs that defaultFontPackage answers.
 */
export async function defaultFontRules(platformNames: ReadonlySet<string>): Promise<FontFaceRule[]> {
  const rules: FontFaceRule[] = [];
  for (const family of DEFAULT_FAMILIES) {
    const faces = (await packageFontRules((await defaultFontPackage(family.package))!))?.rules ?? [];
    for (const name of [family.family, ...family.names.filter((alias) => platformNames.has(alias))])
      rules.push(...faces.map((rule) => ({ ...rule, family: name })));
  }
  return rules;
}

/**
 * The fontconfig file the browsers of every render use, made once per set of package versions
 * in compose's cache: the packages' WOFF2 files as TrueType (the browser's font manager reads no
 * WOFF2 from disk) beside the configuration. The entry is a few MB: every file is checked against
 * its manifest at every use, and a damaged entry made again (`rebuilt` says what was wrong).
 */
export async function defaultFontconfig(): Promise<{ file: string; entry: CacheEntry }> {
  const packages = await Promise.all(DEFAULT_FAMILIES.map(packageOf));
  const dir = join(cacheRoot(), "fonts", keyOf(["fontconfig-v2", fontconfigXml(""), packages.map(({ name, version }) => `${name}@${version}`)]));
  const entry = await cachedDirectory(
    dir,
    async (temp) => {
      // Loaded only to fill the cache: starting its WebAssembly would slow every command's start.
      const { default: woff2 } = await import("wawoff2");
      await mkdir(join(temp, "files"));
      for (const [index, pkg] of packages.entries()) {
        const files = (await readdir(join(pkg.dir, "files"))).filter((name) => DEFAULT_FAMILIES[index]!.files.test(name));
        for (const name of files) {
          const ttf = await woff2.decompress(await readFile(join(pkg.dir, "files", name)));
          await writeFile(join(temp, "files", name.replace(/\.woff2$/, ".ttf")), ttf);
        }
      }
      await writeFile(join(temp, "fonts.conf"), fontconfigXml(dir));
    },
    { scratch: [FONTCONFIG_CACHE], hashes: true },
  );
  return { file: join(dir, "fonts.conf"), entry };
}
