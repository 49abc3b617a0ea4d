import { readFile, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { servesFile } from "../serve/project-server.js";

/** A package installed in a project's node_modules. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** The package's directory, a real path. */
  dir: string;
}

/** An exact npm version (1.2.3, 1.2.3-beta.1): a range or a tag names no one package. */
export const EXACT_VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

/** A package name as npm allows it: lowercase, optionally scoped. */
const PACKAGE_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/**
 * The package `name` as Node would resolve it from `projectRoot`: the first node_modules/<name>
 * in the project's directory or one of its parents; undefined when there is none.
 */
export async function findPackage(projectRoot: string, name: string): Promise<InstalledPackage | undefined> {
  if (!PACKAGE_NAME.test(name)) return undefined;
  for (let dir = projectRoot; ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", name, "package.json");
    const text = await readFile(manifest, "utf8").catch(() => undefined);
    if (text !== undefined) {
      const version = (JSON.parse(text) as { version?: unknown }).version;
      if (typeof version === "string") return { name, version, dir: await realpath(dirname(manifest)) };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The bytes of `path` inside a package, when it names a regular file that really lies in it (as the project server would serve it). */
export async function readPackageFile(pkg: InstalledPackage, path: string): Promise<Buffer | undefined> {
  const urlPath = path.split("/").map(encodeURIComponent).join("/");
  if (!(await servesFile(pkg.dir, urlPath))) return undefined;
  return readFile(join(pkg.dir, ...path.split("/").filter(Boolean))).catch(() => undefined);
}
