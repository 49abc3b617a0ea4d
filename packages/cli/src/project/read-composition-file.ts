import { readFile, stat } from "node:fs/promises";
import { UsageError } from "../usage-error.js";

/** Far above any real composition (media belong in separate files), low enough to stay responsive. */
export const MAX_COMPOSITION_BYTES = 32 * 1024 * 1024;

/** Reads a composition file as UTF-8 text; anything that is not a readable text file is a UsageError. */
export async function readCompositionFile(file: string): Promise<string> {
  const bytes = await readBytes(file);
  if (bytes.includes(0)) throw new UsageError(`${file} is a binary file (it contains NUL bytes), not an HTML composition`);
  try {
    // fatal: a file that is not UTF-8 is most likely not HTML; guessing an encoding would hide that.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not UTF-8 text; a composition must be an HTML file in UTF-8`);
  }
}

async function readBytes(file: string): Promise<Buffer> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new UsageError(`${file} is a directory, not an HTML file`);
    if (info.size > MAX_COMPOSITION_BYTES) {
      throw new UsageError(`${file} is ${Math.round(info.size / 1024 / 1024)} MiB; a composition file may be at most ${MAX_COMPOSITION_BYTES / 1024 / 1024} MiB`);
    }
    return await readFile(file);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `${file} does not exist` : `cannot read ${file}: ${(error as Error).message}`);
  }
}
