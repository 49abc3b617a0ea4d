import { statSync, type Stats } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { PROJECT_FILE_CODE } from "@compose/core";
import { notRegularFile } from "@compose/renderer/project";
import { UsageError } from "../usage-error.js";

export interface CompositionEntry {
  /** Absolute path of the entry HTML file. */
  file: string;
  /** The composition's name for output files: its directory's name, or the file's name without extension. */
  name: string;
}

const ALLOWED = "give a composition directory (with an index.html) or an HTML file";

/** Turns the [dir|file] argument of compose render/lint into the entry file. */
export function resolveCompositionEntry(pathArg: string): CompositionEntry {
  const path = resolve(pathArg);
  const info = statOrUndefined(path);
  if (info === undefined) throw new UsageError(`${pathArg} does not exist; ${ALLOWED}`);
  if (info.isDirectory()) {
    const index = join(path, "index.html");
    const indexInfo = statOrUndefined(index);
    if (indexInfo === undefined) throw new UsageError(`${pathArg} is a directory without an index.html; ${ALLOWED}`);
    refuseIfNotRegular(join(pathArg, "index.html"), indexInfo);
    return { file: index, name: basename(path) };
  }
  refuseIfNotRegular(pathArg, info);
  return { file: path, name: basename(path) === "index.html" ? basename(dirname(path)) : basename(path, extname(path)) };
}

/** A FIFO or device would block the read that follows: the project-file rule refuses it, in its words. */
function refuseIfNotRegular(shown: string, info: Stats): void {
  const refused = notRegularFile(info);
  if (refused !== undefined) throw new UsageError(`[${PROJECT_FILE_CODE}] ${shown} ${refused}`);
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
