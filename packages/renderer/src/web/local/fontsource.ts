import { readdir } from "node:fs/promises";
import { familySlug, type FontPackageProblem } from "@compose/core";
import { dirname, join, relative } from "node:path";
import { z } from "zod";
import { fontFileProblem } from "./font-file.js";
import { lookupDirs, lookUpPackage, readPackageFile, type InstalledPackage, type PackageLookup } from "./npm-package.js";
import { describePackageProblem, parsePackageJson } from "./package-problem.js";
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

/** What compose reads of a font package's metadata.json. */
const metadataSchema = z.looseObject(
  {
    family: z.string({ error: "must be the family's name" }).min(1, "must be the family's name"),
    weights: z.array(z.number().int().min(1).max(1000), { error: "must be a list of weights such as [400, 700]" }),
    styles: z.array(z.enum(["normal", "italic"]), { error: 'must be a list of styles such as ["normal", "italic"]' }),
    variable: z.union([z.literal(false), z.looseObject({ wght: z.looseObject({ min: z.coerce.number(), max: z.coerce.number() }).optional() })], {
      error: 'must be false, or the variable axes such as {"wght": {"min": "100", "max": "900"}}',
    }),
  },
  { error: "must be a JSON object" },
);
type Metadata = z.infer<typeof metadataSchema>;

/** A font package whose metadata compose can read. */
interface FontPackage {
  pkg: InstalledPackage;
  metadata: Metadata;
  variable: boolean;
}

/** The font package `name` as the lookup finds it: one that can be used, or the file that keeps it from being used; neither when there is none. */
async function readFontPackage(lookup: PackageLookup, name: string): Promise<{ font?: FontPackage; problem?: FontPackageProblem }> {
  const { found: pkg, invalid } = await lookUpPackage(lookup, name);
  if (invalid) return { problem: invalid };
  return pkg ? fontPackageOf(pkg) : {};
}

/** The package as a font package: its metadata read, or the file that keeps it from being used. */
async function fontPackageOf(pkg: InstalledPackage): Promise<{ font?: FontPackage; problem?: FontPackageProblem }> {
  const file = `${pkg.shown}/metadata.json`;
  const text = await readPackageFile(pkg, "metadata.json");
  if (text === undefined) return { problem: { file, problem: "is missing or cannot be read, so the package is not used" } };
  const parsed = parsePackageJson(text.toString("utf8"), metadataSchema);
  if (!("value" in parsed)) return { problem: { file, ...parsed, problem: `${parsed.problem}, so the package is not used` } };
  return { font: { pkg, metadata: parsed.value, variable: pkg.name.startsWith(VARIABLE_SCOPE) } };
}

function descriptor(block: string, name: string): string | undefined {
  return new RegExp(`${name}\\s*:\\s*([^;]+);`).exec(block)?.[1]?.trim();
}

/**
 * A face's rule, renamed to `family`, its files named by CDN URLs of the package; `files` gets the
 * package path of the file the browser loads (the first: WOFF2, before a WOFF it would fall back to).
 */
function ruleOf(pkg: InstalledPackage, base: string, family: string, block: string, files: Set<string>): FontFaceRule {
  const paths: string[] = [];
  const src = (descriptor(block, "src") ?? "").replace(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g, (_, url: string) => {
    paths.push(join(base, url).slice(1));
    return `url(${JSON.stringify(packageFileUrl(pkg, paths.at(-1)!))})`;
  });
  if (paths[0] !== undefined) files.add(paths[0]);
  return {
    family,
    style: descriptor(block, "font-style") ?? "normal",
    weight: descriptor(block, "font-weight") ?? "400",
    unicodeRange: descriptor(block, "unicode-range"),
    src,
  };
}

/** The @font-face rules of one of the package's stylesheets, renamed to `family`; undefined when the package has no such file. */
async function rulesOf(pkg: InstalledPackage, cssFile: string, family: string, files: Set<string>): Promise<FontFaceRule[] | undefined> {
  const css = await readPackageFile(pkg, cssFile);
  if (css === undefined) return undefined;
  const base = dirname(`/${cssFile}`);
  return [...css.toString("utf8").matchAll(/@font-face\s*{([^}]*)}/g)].map(([, block]) => ruleOf(pkg, base, family, block!, files));
}

/** Whether `name` is a font package: its font files are checked as they are read. */
export function isFontPackage(name: string): boolean {
  return name.startsWith(`${STATIC_SCOPE}/`) || name.startsWith(`${VARIABLE_SCOPE}/`);
}

/** What is wrong with a font file of a font package (undefined when it looks whole), as the problem naming it. */
export function fontFileProblemOf(pkg: Pick<InstalledPackage, "shown">, path: string, bytes: Buffer | undefined): FontPackageProblem | undefined {
  const problem = bytes === undefined ? "is missing or cannot be read" : fontFileProblem(bytes, path);
  return problem === undefined ? undefined : { file: `${pkg.shown}/${path}`, problem: `${problem}, so text in its face is drawn with another font` };
}

/** The stylesheets of a package that hold `face`, or undefined when it has no file for it. */
function filesFor(metadata: Metadata, face: RequestedFace, variable: boolean): string[] | undefined {
  const italic = face.style === "italic";
  if (italic && !metadata.styles.includes("italic")) return undefined;
  const [low, high] = typeof face.weight === "number" ? [face.weight, face.weight] : face.weight;
  if (variable) {
    const axis = metadata.variable === false ? undefined : metadata.variable.wght;
    if (axis && (low < axis.min || high > axis.max)) return undefined;
    return [axis ? (italic ? "wght-italic.css" : "wght.css") : italic ? "standard-italic.css" : "index.css"];
  }
  const weights = metadata.weights.filter((weight) => weight >= low && weight <= high);
  if (weights.length === 0 || (typeof face.weight === "number" && weights[0] !== face.weight)) return undefined;
  return weights.map((weight) => `${weight}${italic ? "-italic" : ""}.css`);
}

/** A face in words: "italic 700", "300 to 500". */
function describeFace(face: RequestedFace): string {
  const weight = typeof face.weight === "number" ? String(face.weight) : `${face.weight[0]} to ${face.weight[1]}`;
  return face.style === "italic" ? `italic ${weight}` : weight;
}

/**
 * What a package holds of `request`: its rules (and the package paths of the font files the
 * browser loads for them); `lacks` naming a face it has no file for; or the file that keeps it
 * from answering.
 */
type PackageAnswer = { rules: FontFaceRule[]; files: string[] } | { lacks: string } | { problem: FontPackageProblem };

async function rulesFromPackage(font: FontPackage, request: RequestedFamily): Promise<PackageAnswer> {
  const files = new Set<string>();
  for (const face of request.faces) {
    const found = filesFor(font.metadata, face, font.variable);
    if (!found) return { lacks: `${font.pkg.name} has no ${describeFace(face)} face (it has ${describeFaces(font.metadata, font.variable)})` };
    for (const file of found) files.add(file);
  }
  const rules: FontFaceRule[] = [];
  const fontFiles = new Set<string>();
  for (const file of files) {
    const found = await rulesOf(font.pkg, file, request.family, fontFiles);
    if (!found) return { problem: { file: `${font.pkg.shown}/${file}`, problem: "is missing, though metadata.json lists its faces, so they are not used" } };
    rules.push(...found);
  }
  return { rules, files: [...fontFiles] };
}

/** The faces a package has, in words: "weights 400, 700, normal and italic". */
function describeFaces(metadata: Metadata, variable: boolean): string {
  const axis = metadata.variable === false ? undefined : metadata.variable.wght;
  const weights = variable && axis ? `weights ${axis.min} to ${axis.max}` : `weights ${metadata.weights.join(", ")}`;
  return `${weights}, ${metadata.styles.join(" and ")}`;
}

/**
 * The @font-face rules for the faces of a family that the project's @fontsource (else
 * @fontsource-variable) package holds; else why the packages there are cannot give them
 * (`unavailable`), or neither when the project has no package of the family.
 */
export async function fontsourceRules(lookup: PackageLookup, request: RequestedFamily): Promise<{ rules?: FontFaceRule[]; unavailable?: string }> {
  const slug = familySlug(request.family);
  const reasons: string[] = [];
  for (const name of [`${STATIC_SCOPE}/${slug}`, `${VARIABLE_SCOPE}/${slug}`]) {
    const { font, problem } = await readFontPackage(lookup, name);
    const answer = font && (await rulesFromPackage(font, request));
    if (answer && "rules" in answer) return { rules: answer.rules };
    const reason = problem ?? (answer && "problem" in answer ? answer.problem : undefined);
    if (reason) reasons.push(describePackageProblem(reason));
    else if (answer && "lacks" in answer) reasons.push(answer.lacks);
  }
  return reasons.length === 0 ? {} : { unavailable: reasons.join("; ") };
}

/** A font package the project has: its name, and its folder relative to the project. */
export interface InstalledFontPackage {
  name: string;
  shown: string;
}

/** The package of `family` among those the project has (static or variable), usable or not. */
export function installedPackageOf(family: string, installed: readonly InstalledFontPackage[]): InstalledFontPackage | undefined {
  const slug = familySlug(family);
  return installed.find(({ name }) => name === `${STATIC_SCOPE}/${slug}` || name === `${VARIABLE_SCOPE}/${slug}`);
}

/** The font packages the lookup finds, nearest first. */
async function installedFontPackages(lookup: PackageLookup): Promise<InstalledFontPackage[]> {
  const found: InstalledFontPackage[] = [];
  for (const dir of lookupDirs(lookup)) {
    for (const scope of [STATIC_SCOPE, VARIABLE_SCOPE]) {
      const entries = await readdir(join(dir, "node_modules", scope)).catch(() => [] as string[]);
      for (const entry of entries) {
        const name = `${scope}/${entry}`;
        if (!entry.startsWith(".") && !found.some((each) => each.name === name))
          found.push({ name, shown: relative(lookup.root, join(dir, "node_modules", name)) });
      }
    }
  }
  return found;
}

/** Every face a font package has: each style at each weight (a variable package: each style, once). */
function everyFace({ metadata, variable }: FontPackage): RequestedFace[] {
  return metadata.styles.flatMap((style) =>
    variable ? [{ style, weight: metadata.weights[0] ?? 400 }] : metadata.weights.map((weight) => ({ style, weight })),
  );
}

/** Every face of a font package (one of the two scopes), under its family's name; undefined when it cannot be used. */
export async function packageFontRules(pkg: InstalledPackage): Promise<{ family: string; rules: FontFaceRule[] } | undefined> {
  const { font } = await fontPackageOf(pkg);
  const answer = font && (await rulesFromPackage(font, { family: font.metadata.family, faces: everyFace(font) }));
  return font && answer && "rules" in answer ? { family: font.metadata.family, rules: answer.rules } : undefined;
}

/** The project's font packages: the faces they give, every package found (usable or not), and each file that keeps one of them, or a face, from being used. */
export interface ProjectFontPackages {
  rules: FontFaceRule[];
  installed: InstalledFontPackage[];
  problems: FontPackageProblem[];
}

/**
 * Every face of every font package the project has: the families `font-family` may name without
 * a stylesheet. A package that cannot be read is left out, and named in `problems`; with
 * `checkFontFiles` (lint), so is every font file of theirs a browser would load that is no font
 * or is cut short. A render checks only the files its pages load, as it serves them
 * (createLocalWeb): reading every file of every package would cost it half a second with a few
 * large families.
 */
export async function projectFontPackages(lookup: PackageLookup, options: { checkFontFiles: boolean }): Promise<ProjectFontPackages> {
  const rules: FontFaceRule[] = [];
  const problems: FontPackageProblem[] = [];
  const families = new Set<string>();
  const installed = await installedFontPackages(lookup);
  // Static packages first: a family in both scopes is served from its static files.
  const ordered = [...installed].sort((a, b) => Number(a.name.startsWith(VARIABLE_SCOPE)) - Number(b.name.startsWith(VARIABLE_SCOPE)));
  for (const { name } of ordered) {
    const { font, problem } = await readFontPackage(lookup, name);
    if (problem) problems.push(problem);
    if (!font || families.has(font.metadata.family)) continue;
    const answer = await rulesFromPackage(font, { family: font.metadata.family, faces: everyFace(font) });
    if ("problem" in answer) problems.push(answer.problem);
    if (!("rules" in answer)) continue;
    families.add(font.metadata.family);
    rules.push(...answer.rules);
    if (!options.checkFontFiles) continue;
    for (const path of answer.files) {
      const problem = fontFileProblemOf(font.pkg, path, await readPackageFile(font.pkg, path));
      if (problem) problems.push(problem);
    }
  }
  return { rules, installed, problems };
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
