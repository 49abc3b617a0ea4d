import { join } from "node:path";
import { notRegularFile } from "./project-file.js";
import { statOrUndefined } from "./stat-or-undefined.js";

/** The file a composition directory stands for. */
export const DIRECTORY_ENTRY = "index.html";

/**
 * What a composition path names: `missing`; a directory without an index.html; or the entry HTML
 * file, `refused` (why) when the project-file rule refuses its kind. Each caller words these for
 * its own user: the CLI's path argument, the server's composition field.
 */
export type CompositionEntry =
  { kind: "missing" } | { kind: "no-index" } | { kind: "entry"; file: string; fromDirectory: boolean; refused: string | undefined };

/** A directory means its index.html; any other path means itself. */
export async function findCompositionEntry(path: string): Promise<CompositionEntry> {
  const info = await statOrUndefined(path);
  if (info === undefined) return { kind: "missing" };
  const fromDirectory = info.isDirectory();
  const file = fromDirectory ? join(path, DIRECTORY_ENTRY) : path;
  const entryInfo = fromDirectory ? await statOrUndefined(file) : info;
  if (entryInfo === undefined) return { kind: "no-index" };
  return { kind: "entry", file, fromDirectory, refused: notRegularFile(entryInfo) };
}
