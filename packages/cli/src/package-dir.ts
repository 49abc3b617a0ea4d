import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "@compose/cli";

interface Manifest {
  name?: string;
  version: string;
}

function readManifest(dir: string): Manifest | undefined {
  const file = join(dir, "package.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Manifest) : undefined;
}

/**
 * The CLI package's folder, found from wherever this module runs (src/ in tests, dist/ after tsc,
 * a chunk of dist/bundle/ when run as `compose`), so that no file counts its own depth.
 */
function findPackageDir(): { dir: string; manifest: Manifest } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = readManifest(dir);
    if (manifest?.name === PACKAGE_NAME) return { dir, manifest };
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: no package.json of it above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

const cliPackage = findPackageDir();

/** A file the CLI package ships (its templates, the preview page), by its path inside the package. */
export function cliPackageFile(...segments: string[]): string {
  return join(cliPackage.dir, ...segments);
}

/** The CLI's version, as `compose --version` prints it. */
export const CLI_VERSION = cliPackage.manifest.version;
