import { readdir } from "node:fs/promises";
import { familySlug } from "@compose/core";
import { dirname, join } from "node:path";
import { findPackage, lookupDirs, readPackageFile, type InstalledPackage, type PackageLookup } from "./npm-package.js";
import type { RequestedFace, RequestedFamily } from "./google-fonts-url.js";

/** One @font-face of a font package, its files named by CDN URLs that resolve to the package itself. */
export interface FontFaceRule {
  family: string;
  style: string;
  weight: string;
  unicodeRange: string | undefined;
  /** The value of `src`, with absolute URLs. */
  src: string;
}

/** The two npm scopes that carry Google Fonts families: one file per weight, or variable fonts. */
const STATIC_SCOPE = "@fontsource";
const VARIABLE_SCOPE = "@fontsource-variable";

/** The URL a font package's file is published at on jsdelivr: the CDN resolution serves it from the package. */
export function packageFileUrl(pkg: InstalledPackage, path: string): string {
  return `https://cdn.jsdelivr.net/npm/${pkg.name}@${pkg.version}/${path}`;
}

interface Metadata {
  family: string;
  weights: number[];
  styles: string[];
  variable: false | { wght?: { min: string; max: string } };
}

async function metadataOf(pkg: InstalledPackage): Promise<Metadata | undefined> {
  const text = await readPackageFile(pkg, "metadata.json");
  try {
    return text === undefined ? undefined : (JSON.parse(text.toString("utf8")) as Metadata);
  } catch {
    return undefined;
  }
}

function descriptor(block: string, name: string): string | undefined {
  return new RegExp(`${name}\\s*:\\s*([^;]+);`).exec(block)?.[1]?.trim();
}

/** The @font-face rules of one of the package's stylesheets, renamed to `family`; undefined when the package has no such file. */
async function rulesOf(pkg: InstalledPackage, cssFile: string, family: string): Promise<FontFaceRule[] | undefined> {
  const css = await readPackageFile(pkg, cssFile);
  if (css === undefined) return undefined;
  const base = dirname(`/${cssFile}`);
  return [...css.toString("utf8").matchAll(/@font-face\s*{([^}]*)}/g)].map(([, block]) => ({
    family,
    style: descriptor(block!, "font-style") ?? "normal",
    weight: descriptor(block!, "font-weight") ?? "400",
    unicodeRange: descriptor(block!, "unicode-range"),
    src: (descriptor(block!, "src") ?? "").replace(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g, (_, url: string) => `url(${JSON.stringify(packageFileUrl(pkg, join(base, url).slice(1)))})`),
  }));
}

/** The stylesheets of a package that hold `face`, or undefined when it has no file for it. */
function filesFor(metadata: Metadata, face: RequestedFace, variable: boolean): string[] | undefined {
  const italic = face.style === "italic";
  if (italic && !metadata.styles.includes("italic")) return undefined;
  const [low, high] = typeof face.weight === "number" ? [face.weight, face.weight] : face.weight;
  if (variable) {
    const axis = metadata.variable === false ? undefined : metadata.variable.wght;
    if (axis && (low < Number(axis.min) || high > Number(axis.max))) return undefined;
    return [axis ? (italic ? "wght-italic.css" : "wght.css") : italic ? "standard-italic.css" : "index.css"];
  }
  const weights = metadata.weights.filter((weight) => weight >= low && weight <= high);
  if (weights.length === 0 || (typeof face.weight === "number" && weights[0] !== face.weight)) return undefined;
  return weights.map((weight) => `${weight}${italic ? "-italic" : ""}.css`);
}

async function rulesFromPackage(pkg: InstalledPackage | undefined, request: RequestedFamily, variable: boolean): Promise<FontFaceRule[] | undefined> {
  const metadata = pkg && (await metadataOf(pkg));
  if (!pkg || !metadata) return undefined;
  const files = new Set<string>();
  for (const face of request.faces) {
    const found = filesFor(metadata, face, variable);
    if (!found) return undefined;
    for (const file of found) files.add(file);
  }
  const rules: FontFaceRule[] = [];
  for (const file of files) {
    const found = await rulesOf(pkg, file, request.family);
    if (!found) return undefined;
    rules.push(...found);
  }
  return rules;
}

/**
 * The @font-face rules for the faces of a family that the project's @fontsource (else
 * @fontsource-variable) package holds; undefined when neither package holds them all.
 */
export async function fontsourceRules(lookup: PackageLookup, request: RequestedFamily): Promise<FontFaceRule[] | undefined> {
  const slug = familySlug(request.family);
  return (
    (await rulesFromPackage(await findPackage(lookup, `${STATIC_SCOPE}/${slug}`), request, false)) ??
    (await rulesFromPackage(await findPackage(lookup, `${VARIABLE_SCOPE}/${slug}`), request, true))
  );
}

/** The names of the font packages the lookup finds, nearest first. */
async function installedFontPackages(lookup: PackageLookup): Promise<string[]> {
  const names: string[] = [];
  for (const dir of lookupDirs(lookup)) {
    for (const scope of [STATIC_SCOPE, VARIABLE_SCOPE]) {
      const entries = await readdir(join(dir, "node_modules", scope)).catch(() => [] as string[]);
      for (const entry of entries) if (!entry.startsWith(".") && !names.includes(`${scope}/${entry}`)) names.push(`${scope}/${entry}`);
    }
  }
  return names;
}

/** The families of the font packages the project has. */
export async function installedFontFamilies(lookup: PackageLookup): Promise<string[]> {
  const families: string[] = [];
  for (const name of await installedFontPackages(lookup)) {
    const pkg = await findPackage(lookup, name);
    const metadata = pkg && (await metadataOf(pkg));
    if (metadata) families.push(metadata.family);
  }
  return families;
}

/** Every face of a font package (one of the two scopes), under its family's name; undefined when it is not one. */
export async function packageFontRules(pkg: InstalledPackage): Promise<{ family: string; rules: FontFaceRule[] } | undefined> {
  const metadata = await metadataOf(pkg);
  if (!metadata) return undefined;
  const variable = pkg.name.startsWith(`${VARIABLE_SCOPE}/`);
  const faces: RequestedFace[] = metadata.styles.flatMap((style) =>
    variable ? [{ style: style as RequestedFace["style"], weight: metadata.weights[0] ?? 400 }] : metadata.weights.map((weight) => ({ style: style as RequestedFace["style"], weight })),
  );
  const rules = await rulesFromPackage(pkg, { family: metadata.family, faces }, variable);
  return rules && { family: metadata.family, rules };
}

/** Every face of every font package the project has: the families `font-family` may name without a stylesheet. */
export async function projectFontRules(lookup: PackageLookup): Promise<FontFaceRule[]> {
  const rules: FontFaceRule[] = [];
  const families = new Set<string>();
  // Static packages first: a family in both scopes is served from its static files.
  const names = (await installedFontPackages(lookup)).sort((a, b) => Number(a.startsWith(VARIABLE_SCOPE)) - Number(b.startsWith(VARIABLE_SCOPE)));
  for (const name of names) {
    const pkg = await findPackage(lookup, name);
    const found = pkg && (await packageFontRules(pkg));
    if (!found || families.has(found.family)) continue;
    families.add(found.family);
    rules.push(...found.rules);
  }
  return rules;
}

/** The rules as a stylesheet. */
export function fontFaceCss(rules: FontFaceRule[]): string {
  return rules
    .map((rule) =>
      [
        "@font-face {",
        `  font-family: ${JSON.stringify(rule.family)};`,
        `  font-style: ${rule.style};`,
        `  font-weight: ${rule.weight};`,
        "  font-display: swap;",
        `  src: ${rule.src};`,
        ...(rule.unicodeRange ? [`  unicode-range: ${rule.unicodeRange};`] : []),
        "}",
      ].join("\n"),
    )
    .join("\n");
}

