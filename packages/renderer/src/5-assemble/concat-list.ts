import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Writes the list of `parts` that ffmpeg's concat demuxer reads into `scratch`; returns its path. */
export async function writeConcatList(parts: readonly string[], scratch: string): Promise<string> {
  const listFile = join(scratch, "parts.txt");
  await writeFile(listFile, parts.map((file) => `file '${file.replaceAll("'", "'\\''")}'`).join("\n") + "\n");
  return listFile;
}
