import { basename, dirname, relative, resolve } from "node:path";
import { readProjectFile } from "../../common/project-file.js";

/** A composition file's bytes as text: UTF-8 without its byte order mark, or an Error naming `shown`. */
export function compositionText(bytes: Buffer, shown: string): string {
  if (bytes.includes(0)) throw new Error(`${shown} is a binary file (it contains NUL bytes), not an HTML composition`);
  try {
    // fatal: a file that is not UTF-8 is most likely not HTML; guessing an encoding would hide that.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${shown} is not UTF-8 text; a composition must be an HTML file in UTF-8`);
  }
}

/**
 * How lint and render read a project's composition files: under the project-file rule (a
 * ProjectFileError when it refuses one), bounded in size and time, as text. A path is relative to
 * `pathsFrom` and named as given in messages; undefined when the file does not exist.
 */
export function projectTextLoader(projectDir: string, pathsFrom: string, signal?: AbortSignal): (path: string) => Promise<string | undefined> {
  return async (path) => {
    const bytes = await readProjectFile(projectDir, relative(projectDir, resolve(pathsFrom, path)), { shown: path, signal });
    return bytes === undefined ? undefined : compositionText(bytes, path);
  };
}

/** An entry composition file, as its project sees it: named by its file name in messages. */
export function readCompositionText(file: string, signal?: AbortSignal): Promise<string | undefined> {
  return projectTextLoader(dirname(file), dirname(file), signal)(basename(file));
}
