import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { OutputFormat } from "@compose/core";

/** Bytes of an output: the file, or every file of a png-sequence directory. */
export async function outputSize(output: string, format: OutputFormat): Promise<number> {
  if (format !== "png-sequence") return (await stat(output)).size;
  const names = await readdir(output);
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(output, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}
