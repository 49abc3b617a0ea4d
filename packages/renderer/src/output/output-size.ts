import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** Bytes of an output: the file, or every file of a png-sequence directory. */
export async function outputSize(output: string): Promise<number> {
  const info = await stat(output);
  if (!info.isDirectory()) return info.size;
  const names = await readdir(output);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(output, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}
