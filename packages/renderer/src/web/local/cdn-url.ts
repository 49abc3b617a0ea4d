import { EXACT_VERSION } from "./npm-package.js";

/** A file of an npm package at an exact version, as a CDN URL names it. */
export interface CdnFile {
  name: string;
  version: string;
  /** Paths inside the package to try in order; empty: the package's default file. */
  paths: string[];
  /** package.json fields that name the default file, in the CDN's order. */
  entryFields: string[];
}

/** cdnjs libraries published on npm under another name. */
const CDNJS_NPM_NAMES: Record<string, string> = { bodymovin: "lottie-web" };

/** `name@version/path` as jsdelivr's /npm/ and unpkg write it. */
function npmSpecifier(rest: string, entryFields: string[]): CdnFile | undefined {
  const match = /^((?:@[^/@]+\/)?[^/@]+)@([^/]+)(?:\/(.*))?$/.exec(rest);
  if (!match || !EXACT_VERSION.test(match[2]!)) return undefined;
  const path = match[3] ?? "";
  return { name: match[1]!, version: match[2]!, paths: path === "" ? [] : [path], entryFields };
}

/**
 * The package file an exact-version URL of jsdelivr, unpkg or cdnjs names, or undefined for any
 * other URL (another host, a version range or tag, a generated bundle such as jsdelivr's +esm).
 */
export function parseCdnUrl(url: string): CdnFile | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return undefined;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return undefined;
  }
  let file: CdnFile | undefined;
  if (parsed.hostname === "cdn.jsdelivr.net" && path.startsWith("/npm/")) {
    file = npmSpecifier(path.slice("/npm/".length), ["jsdelivr", "browser", "main"]);
  } else if (parsed.hostname === "unpkg.com") {
    file = npmSpecifier(path.slice(1), ["unpkg", "browser", "main"]);
  } else if (parsed.hostname === "cdnjs.cloudflare.com") {
    const match = /^\/ajax\/libs\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
    if (match && EXACT_VERSION.test(match[2]!)) {
      // cdnjs lays out what most packages publish under dist/ at the library's top level.
      file = { name: CDNJS_NPM_NAMES[match[1]!] ?? match[1]!, version: match[2]!, paths: [match[3]!, `dist/${match[3]!}`], entryFields: [] };
    }
  }
  if (file?.paths.some((candidate) => candidate.endsWith("/+esm") || candidate === "+esm")) return undefined;
  return file;
}

/** The host names whose URLs parseCdnUrl reads. */
export const CDN_HOSTS = ["cdn.jsdelivr.net", "unpkg.com", "cdnjs.cloudflare.com"] as const;
