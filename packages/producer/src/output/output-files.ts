import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { contentTypeOfFile, formatOfExtension, outputExtension, type OutputFormat } from "@compose/core";

/**
 * Where a request's output goes: `<outputs>/<requestId>.<format>`, or the directory
 * `<outputs>/<requestId>/` for png-sequence. The id is a random UUID, so names never collide
 * and reveal nothing about the composition.
 */
export function outputPath(outputsDir: string, requestId: string, format: OutputFormat): string {
  return join(outputsDir, requestId + outputExtension(format));
}

/** The longest output name a request may give, in characters (the file system's limit less the staging name's additions, with room to spare). */
export const MAX_OUTPUT_NAME_LENGTH = 200;
/** An output name: letters, digits, `.`, `_` and `-`, starting with a letter or digit (so never hidden, never a path). */
export const OUTPUT_NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]*$";
const OUTPUT_NAME = new RegExp(OUTPUT_NAME_PATTERN);

/** A name a request's output may have inside the outputs directory: one plain file or directory name. */
export function isOutputName(name: unknown): name is string {
  return typeof name === "string" && name.length <= MAX_OUTPUT_NAME_LENGTH + 1 && OUTPUT_NAME.test(name) && !name.includes("..");
}

/**
 * Why `name` cannot be a request's output name for `format`, phrased to follow the field's name,
 * or undefined when it can: a plain name inside the outputs directory (no absolute path, no
 * directories, no `..`, no hidden name), whose extension is the format's (none for png-sequence,
 * a directory of frames).
 */
export function outputNameProblem(name: string, format: OutputFormat): string | undefined {
  if (name.startsWith("/")) return "must be a name inside the outputs directory, not an absolute path";
  if (/[\\/]/.test(name)) return "must be a file name in the outputs directory, without directories";
  if (name.includes("..")) return "may not contain ..";
  if (name.startsWith(".")) return "may not start with a dot: hidden names in the outputs directory are the server's";
  if (name.length > MAX_OUTPUT_NAME_LENGTH) return `is ${name.length} characters long, over the limit of ${MAX_OUTPUT_NAME_LENGTH}`;
  if (!OUTPUT_NAME.test(name)) return "may hold only letters, digits, ., _ and -, and must start with a letter or digit";
  const extension = outputExtension(format);
  if (extension === "" && formatOfExtension(name) !== undefined)
    return `names a ${formatOfExtension(name)} file, but png-sequence writes a directory of frames: leave the extension out`;
  if (extension !== "" && !name.toLowerCase().endsWith(extension)) return `must end in ${extension} for format ${format}`;
  return undefined;
}

export function contentTypeOf(path: string): string {
  return contentTypeOfFile(path) ?? "application/octet-stream";
}

export interface SequenceFile {
  name: string;
  size: number;
}

/** The files of a png-sequence output (frames, and audio.aac when there is audio), by name. */
export async function listSequence(directory: string): Promise<SequenceFile[]> {
  // The directory is this request's own, so everything in it is the render's output.
  const names = (await readdir(directory)).sort();
  return Promise.all(names.map(async (name) => ({ name, size: (await stat(join(directory, name))).size })));
}
