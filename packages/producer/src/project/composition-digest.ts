import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";

/** An entry file larger than this is not read for its digest (the project's files are far smaller). */
const MAX_DIGESTED_BYTES = 64 * 1024 * 1024;

/**
 * The composition as it is on disk now, as a sha256 of its entry file: a request that waits
 * across a restart is rendered only if its composition is still the one it was given. Undefined
 * when it is no longer a regular file that can be read (a FIFO would never end a read).
 */
export async function compositionDigest(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MAX_DIGESTED_BYTES) return undefined;
    return createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  } catch {
    return undefined;
  }
}
