import { basename, dirname, extname, join, resolve } from "node:path";
import { PROJECT_FILE_CODE } from "@compose/core";
import { DIRECTORY_ENTRY, findCompositionEntry } from "@compose/renderer/project";
import { UsageError } from "../usage-error.js";

export interface CompositionEntry {
  /** Absolute path of the entry HTML file. */
  file: string;
  /** The composition's name for output files: its directory's name, or the file's name without extension. */
  name: string;
}

const ALLOWED = "give a composition directory (with an index.html) or an HTML file";

/** Turns the [dir|file] argument of compose render/lint into the entry file. */
export async function resolveCompositionEntry(pathArg: string): Promise<CompositionEntry> {
  const found = await findCompositionEntry(resolve(pathArg));
  if (found.kind === "missing") throw new UsageError(`${pathArg} does not exist; ${ALLOWED}`);
  if (found.kind === "no-index") throw new UsageError(`${pathArg} is a directory without an index.html; ${ALLOWED}`);
  // A FIFO or device would block the read that follows: the project-file rule refuses it, in its words.
  if (found.refused !== undefined) {
    throw new UsageError(`[${PROJECT_FILE_CODE}] ${found.fromDirectory ? join(pathArg, DIRECTORY_ENTRY) : pathArg} ${found.refused}`);
  }
  return { file: found.file, name: compositionName(found.file) };
}

/** A composition's name for output files: an index.html is named after its directory, another file after itself. */
export function compositionName(file: string): string {
  return basename(file) === DIRECTORY_ENTRY ? basename(dirname(file)) : basename(file, extname(file));
}
