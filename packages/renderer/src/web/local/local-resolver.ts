import { extname } from "node:path";
import { CDN_HOSTS, parseCdnUrl, type CdnFile } from "./cdn-url.js";
import { familySlug, type FontPackageProblem } from "@compose/core";
import { fontFaceCss, fontFileProblemOf, fontsourceRules, isFontPackage } from "./fontsource.js";
import { GOOGLE_FONTS_HOST, parseGoogleFontsUrl, type RequestedFamily } from "./google-fonts-url.js";
import { lookUpPackage, readPackageFile, type InstalledPackage, type PackageLookup } from "./npm-package.js";
import { describePackageProblem } from "./package-problem.js";

/** What the browser gets instead of going to the network. */
export interface LocalResponse {
  contentType: string;
  body: Buffer;
}

/** Answers the web from the project's node_modules: a local response, or undefined to go on as the policy says. */
export interface LocalWeb {
  resolve(url: string): Promise<LocalResponse | undefined>;
  /**
   * For a URL it could not answer, in words: why the project's copy is refused, or what would let
   * it answer (undefined for URLs it never answers).
   */
  remedy(url: string): Promise<string | undefined>;
}

/** The hosts whose requests it may answer: the browser pauses only these when it would not pause everything. */
export const LOCAL_WEB_HOSTS: readonly string[] = [GOOGLE_FONTS_HOST, ...CDN_HOSTS];

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
};

/** The file a CDN URL names in the installed package: its path, or the package's default file. */
async function cdnFileBody(pkg: InstalledPackage, file: CdnFile): Promise<{ path: string; body: Buffer } | undefined> {
  let paths = file.paths;
  if (paths.length === 0) {
    const manifest = JSON.parse((await readPackageFile(pkg, "package.json"))!.toString("utf8")) as Record<string, unknown>;
    const entry = file.entryFields.map((field) => manifest[field]).find((value): value is string => typeof value === "string");
    paths = [entry ?? "index.js"];
  }
  for (const path of paths) {
    // A default file may be named without its extension, as Node's resolution allows.
    for (const candidate of [path, `${path}.js`]) {
      const body = await readPackageFile(pkg, candidate.replace(/^\.\//, ""));
      if (body) return { path: candidate, body };
    }
  }
  return undefined;
}

/** What the packages say of a URL: the response, or why the packages there are cannot answer it, or the font families the project has no package of. */
interface Answer {
  response?: LocalResponse;
  refused?: string;
  missingFamilies?: string[];
}

/** What a local web tells, and where it may look besides the project's packages. */
export interface LocalWebOptions {
  /** Told, once each, of a font file of a font package that is no font or is cut short. */
  onFontFileProblem?: (problem: FontPackageProblem) => void;
  /** compose's own packages, answering where the project has none of that version (the default fonts, for a browser that is not the renderer's). */
  ownPackage?: (name: string) => Promise<InstalledPackage | undefined>;
}

/**
 * Resolves Google Fonts stylesheets and exact-version CDN files from the packages the lookup
 * finds (and `ownPackage`'s). A font file of a font package that is no font or is cut short is
 * answered as it is (the browser refuses it, and draws with another source or font), and told to
 * `onFontFileProblem`, once.
 */
export function createLocalWeb(lookup: PackageLookup, options: LocalWebOptions = {}): LocalWeb {
  const answers = new Map<string, Promise<Answer>>();
  const onFontFileProblem = options.onFontFileProblem ?? (() => undefined);

  const resolveCdn = async (file: CdnFile): Promise<Answer> => {
    const { found: installed, refused, invalid } = await lookUpPackage(lookup, file.name);
    if (invalid) return { refused: describePackageProblem(invalid) };
    const pkg = installed?.version === file.version ? installed : await options.ownPackage?.(file.name);
    if (!pkg || pkg.version !== file.version) return { refused };
    const found = await cdnFileBody(pkg, file);
    const problem = found && isFontPackage(pkg.name) ? fontFileProblemOf(pkg, found.path, found.body) : undefined;
    if (problem) onFontFileProblem(problem);
    return { response: found && { contentType: CONTENT_TYPES[extname(found.path)] ?? "application/octet-stream", body: found.body } };
  };

  const resolveGoogleFonts = async (families: RequestedFamily[]): Promise<Answer> => {
    const css: string[] = [];
    const missingFamilies: string[] = [];
    for (const family of families) {
      const { rules, unavailable } = await fontsourceRules(lookup, family);
      if (unavailable !== undefined) return { refused: unavailable };
      if (rules) css.push(fontFaceCss(rules));
      else missingFamilies.push(family.family);
    }
    if (missingFamilies.length > 0) return { missingFamilies };
    return { response: { contentType: "text/css; charset=utf-8", body: Buffer.from(css.join("\n")) } };
  };

  const answerOf = async (url: string): Promise<Answer> => {
    const file = parseCdnUrl(url);
    if (file) return resolveCdn(file);
    const families = parseGoogleFontsUrl(url);
    return families ? resolveGoogleFonts(families) : {};
  };
  const answer = (url: string): Promise<Answer> => {
    if (!answers.has(url))
      answers.set(
        url,
        answerOf(url).catch(() => ({})),
      );
    return answers.get(url)!;
  };

  return {
    resolve: async (url) => (await answer(url)).response,
    async remedy(url) {
      const { refused, missingFamilies } = await answer(url);
      if (refused !== undefined) return `the project cannot serve it: ${refused}`;
      const file = parseCdnUrl(url);
      if (file) return `to serve it from the project, run npm install ${file.name}@${file.version} in the project`;
      if (missingFamilies)
        return `to serve it from the project, run ${missingFamilies.map((family) => `compose fonts add ${familySlug(family)}`).join(" and ")} in the project`;
      return undefined;
    },
  };
}
