import { realpath } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { z } from "zod";
import { ProjectFileError, readProjectFile } from "../../common/project-file.js";
import type { FontPackageProblem } from "@compose/core";
import { parsePackageJson } from "./package-problem.js";

/** A package installed in a project's node_modules. */
export interface InstalledPackage {
  name: string;
  version: string;
  /** The package's directory, a real path. */
  dir: string;
  /** Its folder as the lookup found it, relative to the project (`node_modules/<name>`, `../node_modules/<name>`), for messages. */
  shown: string;
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

/** What compose reads of a package's package.json; the rest is the package's own business. */
const packageJsonSchema = z.looseObject({ version: z.string({ error: 'must be a version such as "1.2.3"' }) });

/** What a lookup finds of a package: the package, or why the first there was cannot be used. */
export interface PackageFound {
  found?: InstalledPackage;
  /** Refused by the project-file rule (a link out of the folder holding its node_modules). */
  refused?: string;
  /** Its package.json cannot be read: not JSON, or no version. */
  invalid?: FontPackageProblem;
}

/**
 * What the lookup finds of the package `name`: the first node_modules/<name> that lies in the
 * folder holding that node_modules (see `within`), and else why the first there was is refused
 * (a link out of that folder); neither when there is none. As in Node, the first folder of that
 * name is the package: one whose package.json cannot be read is `invalid`, not skipped.
 */
export async function lookUpPackage(lookup: PackageLookup, name: string): Promise<PackageFound> {
  if (!PACKAGE_NAME.test(name)) return {};
  let refused: string | undefined;
  for (const dir of lookupDirs(lookup)) {
    const located = await Promise.all([realpath(join(dir, "node_modules", name)), realpath(dir)]).catch(() => undefined);
    if (located === undefined) continue;
    const [packageDir, within] = located;
    const shown = relative(lookup.root, join(dir, "node_modules", name));
    const text = await readProjectFile(packageDir, "package.json", { within, shown: `${shown}/package.json` }).catch((error: unknown) => {
      if (error instanceof ProjectFileError) refused ??= error.message;
      return undefined;
    });
    if (text === undefined) continue;
    const manifest = parsePackageJson(text.toString("utf8"), packageJsonSchema);
    if (!("value" in manifest)) return { invalid: { file: `${shown}/package.json`, ...manifest, problem: `${manifest.problem}, so the package is not used` } };
    return { found: { name, version: manifest.value.version, dir: packageDir, shown, within } };
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
