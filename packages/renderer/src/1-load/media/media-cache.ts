import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** Where extracted video frames are kept between renders: $COMPOSE_CACHE_DIR, else the XDG cache. */
export function cacheRoot(): string {
  if (process.env.COMPOSE_CACHE_DIR) return process.env.COMPOSE_CACHE_DIR;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "compose");
}

/** Identifies a source by its bytes, so a renamed or copied file still hits the cache. */
export async function contentHash(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export function keyOf(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Entries being filled by this process: a second request for one waits for the first. */
const filling = new Map<string, Promise<string>>();

/**
 * Fills a cache entry once: `fill` writes into a private directory that is renamed into place
 * when complete, so a crash or a concurrent render never leaves a half-filled entry.
 */
export function cachedDirectory(dir: string, fill: (tempDir: string) => Promise<void>): Promise<string> {
  const pending = filling.get(dir) ?? fillOnce(dir, fill).finally(() => filling.delete(dir));
  filling.set(dir, pending);
  return pending;
}

async function fillOnce(dir: string, fill: (tempDir: string) => Promise<void>): Promise<string> {
  if (await exists(dir)) return dir;
  await mkdir(dirname(dir), { recursive: true });
  // Unique across processes too, so two renders filling the same entry never share a folder.
  const temp = await mkdtemp(`${dir}.partial-`);
  try {
    await fill(temp);
    await rename(temp, dir).catch(async (error: NodeJS.ErrnoException) => {
      // Another render filled it meanwhile: theirs is as good as ours.
      if (!(await exists(dir))) throw error;
      await rm(temp, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  return dir;
}
