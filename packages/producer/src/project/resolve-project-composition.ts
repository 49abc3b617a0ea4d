import { readdir, realpath } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { closestMatch, PROJECT_FILE_CODE } from "@compose/core";
import { findCompositionEntry, isInside } from "@compose/renderer/project";

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

/** Whether `path` (a directory or file the projects directory holds) is, once its links are followed, inside `projectsRoot`. */
async function reallyInside(projectsRoot: string, path: string): Promise<boolean> {
  const real = await realpath(path).catch(() => undefined);
  return real !== undefined && isInside(projectsRoot, real);
}

/**
 * The composition a missing path most likely meant: among the directories and HTML files beside
 * where it points (dotfiles left out, as the project rules hide them), the nearest by name. Only
 * what is inside the projects directory once links are followed is named: a link out of it
 * shows nothing of what lies beyond.
 */
async function closestComposition(projectsRoot: string, requested: string): Promise<string | undefined> {
  const trimmed = requested.replace(/[\\/]+$/, "");
  const parent = dirname(trimmed);
  const dir = resolve(projectsRoot, parent);
  if (!(await reallyInside(projectsRoot, dir))) return undefined;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const candidates = entries.filter((entry) => !entry.name.startsWith(".") && (entry.isDirectory() || /\.html?$/i.test(entry.name)));
  const inside = await Promise.all(candidates.map((entry) => reallyInside(projectsRoot, join(dir, entry.name))));
  const names = candidates.filter((_, i) => inside[i]).map((entry) => entry.name);
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

  const found = await findCompositionEntry(path);
  if (found.kind === "missing") {
    throw new CompositionPathError(
      `does not exist in the projects directory (got ${requested}); ${ALLOWED}`,
      await closestComposition(projectsRoot, requested),
    );
  }
  if (found.kind === "no-index") throw new CompositionPathError(`is a directory without an index.html (got ${requested}); ${ALLOWED}`);
  if (found.refused !== undefined) {
    throw new CompositionPathError(`${relative(projectsRoot, found.file)} ${found.refused} (${PROJECT_FILE_CODE}; got ${requested})`);
  }
  if (!found.fromDirectory && !/^\.html?$/i.test(extname(path))) {
    throw new CompositionPathError(`is not an HTML file (got ${requested}); ${ALLOWED}`);
  }

  const file = await realpath(found.file);
  if (!isInside(projectsRoot, file)) {
    throw new CompositionPathError(`leads outside the projects directory through a symbolic link (got ${requested})`);
  }
  return file;
}
