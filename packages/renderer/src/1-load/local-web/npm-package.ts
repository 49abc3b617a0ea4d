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
 * Where packages are looked for: the node_modules of `root`, and with `parents` those of its
 * parent directories too, as Node resolves them. A render for others looks in the project alone.
 */
export interface PackageLookup {
  root: string;
  parents: boolean;
}

/** The directories whose node_modules a lookup searches, nearest first. */
export function lookupDirs({ root, parents }: PackageLookup): string[] {
  const dirs = [root];
  while (parents && dirname(dirs.at(-1)!) !== dirs.at(-1)) dirs.push(dirname(dirs.at(-1)!));
  return dirs;
}

/** The package `name` as the lookup finds it: the first node_modules/<name>; undefined when there is none. */
export async function findPackage(lookup: PackageLookup, name: string): Promise<InstalledPackage | undefined> {
  if (!PACKAGE_NAME.test(name)) return undefined;
  for (const dir of lookupDirs(lookup)) {
    const manifest = join(dir, "node_modules", name, "package.json");
    const text = await readFile(manifest, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const version = (JSON.parse(text) as { version?: unknown }).version;
    if (typeof version === "string") return { name, version, dir: await realpath(dirname(manifest)) };
  }
  return undefined;
}

/** The bytes of `path` inside a package, when it names a regular file that really lies in it (as the project server would serve it). */
export async function readPackageFile(pkg: InstalledPackage, path: string): Promise<Buffer | undefined> {
  const urlPath = path.split("/").map(encodeURIComponent).join("/");
  if (!(await servesFile(pkg.dir, urlPath))) return undefined;
  return readFile(join(pkg.dir, ...path.split("/").filter(Boolean))).catch(() => undefined);
}
