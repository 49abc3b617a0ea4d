import { realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { readProjectFile } from "../../common/project-file.js";

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
    const packageDir = join(dir, "node_modules", name);
    const text = await readPackageText(packageDir, "package.json");
    if (text === undefined) continue;
    const version = (JSON.parse(text.toString("utf8")) as { version?: unknown }).version;
    if (typeof version === "string") return { name, version, dir: await realpath(packageDir) };
  }
  return undefined;
}

/**
 * The bytes of `path` inside a package, when it names a regular file that really lies in it (as
 * the project server would serve it), read with the project-file rule's size cap and deadline.
 */
export function readPackageFile(pkg: InstalledPackage, path: string): Promise<Buffer | undefined> {
  return readPackageText(pkg.dir, path);
}

/** A package's file under the project-file rule, the package's directory standing for the project; undefined when it is missing or refused. */
async function readPackageText(packageDir: string, path: string): Promise<Buffer | undefined> {
  return readProjectFile(packageDir, join(...path.split("/").filter(Boolean))).catch(() => undefined);
}
