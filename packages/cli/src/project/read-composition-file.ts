import { basename, dirname } from "node:path";
import { compositionText, ProjectFileError, readProjectFile } from "@compose/renderer/project";
import { UsageError } from "../usage-error.js";

/**
 * Reads a composition file as UTF-8 text under the project-file rule of its directory; anything
 * that is not a readable text file is a UsageError.
 */
export async function readCompositionFile(file: string): Promise<string> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readProjectFile(dirname(file), basename(file), { shown: file });
  } catch (error) {
    if (error instanceof ProjectFileError) throw new UsageError(`[${error.code}] ${error.message}`);
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (bytes === undefined) throw new UsageError(`${file} does not exist`);
  try {
    return compositionText(bytes, file);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
