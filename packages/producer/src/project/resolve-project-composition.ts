import { readdir, realpath, stat } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { closestMatch, PROJECT_FILE_CODE } from "@compose/core";
import { notRegularFile } from "@compose/renderer";

/** Why a requested path cannot be rendered; the message follows the field's name. */
export class CompositionPathError extends Error {
  override name = "CompositionPathError";
  constructor(
    message: string,
    /** The path a missing one most likely meant, as the client would write it. */
    readonly closest?: string,
  ) {
    super(message);
  }
}

const ALLOWED = "give a directory with an index.html or an HTML file, relative to the projects directory";

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

/**
 * The composition a missing path most likely meant: among the directories and HTML files beside
 * where it points (dotfiles left out, as the project rules hide them), the nearest by name.
 */
async function closestComposition(projectsRoot: string, requested: string): Promise<string | undefined> {
  const trimmed = requested.replace(/[\\/]+$/, "");
  const parent = dirname(trimmed);
  const entries = await readdir(resolve(projectsRoot, parent), { withFileTypes: true }).catch(() => []);
  const names = entries.filter((entry) => !entry.name.startsWith(".") && (entry.isDirectory() || /\.html?$/i.test(entry.name))).map((entry) => entry.name);
  const closest = closestMatch(basename(trimmed), names);
  return closest === undefined ? undefined : parent === "." ? closest : `${parent}/${closest}`;
}

/**
 * Turns a client's composition path into an HTML file inside `projectsRoot` (itself a real path).
 * A client names files on the server's disk, so the path is checked twice: as written (`..`,
 * absolute) and after symlinks are resolved, since a link inside the projects directory can
 * point anywhere. Returns the entry HTML file with every symlink resolved.
 */
export async function resolveProjectComposition(projectsRoot: string, requested: string): Promise<string> {
  if (requested.trim() === "" || requested.includes("\0")) throw new CompositionPathError(`must be a path: ${ALLOWED}`);
  if (isAbsolute(requested)) throw new CompositionPathError(`must be relative to the projects directory, not absolute (got ${requested})`);
  const path = resolve(projectsRoot, requested);
  if (!isInside(projectsRoot, path)) throw new CompositionPathError(`leads outside the projects directory (got ${requested})`);

  const info = await statOrUndefined(path);
  if (!info) throw new CompositionPathError(`does not exist in the projects directory (got ${requested}); ${ALLOWED}`, await closestComposition(projectsRoot, requested));
  const entry = info.isDirectory() ? join(path, "index.html") : path;
  const entryInfo = info.isDirectory() ? await statOrUndefined(entry) : info;
  if (entryInfo === undefined) throw new CompositionPathError(`is a directory without an index.html (got ${requested}); ${ALLOWED}`);
  const refused = notRegularFile(entryInfo);
  if (refused !== undefined) {
    throw new CompositionPathError(`${relative(projectsRoot, entry)} ${refused} (${PROJECT_FILE_CODE}; got ${requested})`);
  }
  if (!info.isDirectory() && !/^\.html?$/i.test(extname(path))) {
    throw new CompositionPathError(`is not an HTML file (got ${requested}); ${ALLOWED}`);
  }

  const file = await realpath(entry);
  if (!isInside(projectsRoot, file)) {
    throw new CompositionPathError(`leads outside the projects directory through a symbolic link (got ${requested})`);
  }
  return file;
}
