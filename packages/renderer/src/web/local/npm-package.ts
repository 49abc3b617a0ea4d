import { realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ProjectFileError, readProjectFile } from "../../common/project-file.js";

/** A package installed in a project's node_modules. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** The package's directory, a real path. */
  dir: string;
  /**
   * The real path of the folder whose node_modules holds it, which every file read of the
   * package lies in too: a link there may lead to a workspace inside that folder, never out.
   */
  within: string;
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

/**
 * What the lookup finds of the package `name`: the first node_modules/<name> that lies in the
 * folder holding that node_modules (see `within`), and else why the first there was is refused
 * (a link out of that folder); neither when there is none.
 */
export async function lookUpPackage(lookup: PackageLookup, name: string): Promise<{ found?: InstalledPackage; refused?: string }> {
  if (!PACKAGE_NAME.test(name)) return {};
  let refused: string | undefined;
  for (const dir of lookupDirs(lookup)) {
    const located = await Promise.all([realpath(join(dir, "node_modules", name)), realpath(dir)]).catch(() => undefined);
    if (located === undefined) continue;
    const [packageDir, within] = located;
    const text = await readProjectFile(packageDir, "package.json", { within, shown: `node_modules/${name}/package.json` }).catch((error: unknown) => {
      if (error instanceof ProjectFileError) refused ??= error.message;
      return undefined;
    });
    if (text === undefined) continue;
    const version = (JSON.parse(text.toString("utf8")) as { version?: unknown }).version;
    if (typeof version === "string") return { found: { name, version, dir: packageDir, within } };
  }
  return { refused };
}

/** The package `name` as lookUpPackage finds it; undefined when there is none. */
export async function findPackage(lookup: PackageLookup, name: string): Promise<InstalledPackage | undefined> {
  return (await lookUpPackage(lookup, name)).found;
}

/**
 * The bytes of `path` inside a package, when it names a regular file that really lies in it (as
 * the project server would serve it) and in the folder whose node_modules holds it, read with the
 * project-file rule's size cap and deadline; undefined when it is missing or refused.
 */
export function readPackageFile(pkg: Pick<InstalledPackage, "dir" | "within">, path: string): Promise<Buffer | undefined> {
  return readProjectFile(pkg.dir, join(...path.split("/").filter(Boolean)), { within: pkg.within }).catch(() => undefined);
}
