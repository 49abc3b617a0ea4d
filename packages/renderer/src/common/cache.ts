import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

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

/** Fills a cache entry once, named by the caller. */
export function cachedDirectory(dir: string, fill: (tempDir: string) => Promise<void>): Promise<string> {
  const pending = filling.get(dir) ?? fillOnce(dir, fill).finally(() => filling.delete(dir));
  filling.set(dir, pending);
  return pending;
}

async function fillOnce(dir: string, fill: (tempDir: string) => Promise<void>): Promise<string> {
  if (await exists(dir)) return dir;
  await mkdir(dirname(dir), { recursive: true });
  return fillAndPlace(`${dir}.partial-`, fill, async () => dir);
}

/**
 * Fills a cache entry named after the files it holds, for a source whose bytes may change under
 * the same name (a URL): a render then shows what the source holds now, and renders that find the
 * same content share one entry. Resolves to the entry's name under `root` and its path.
 */
export async function contentAddressedDirectory(root: string, fill: (tempDir: string) => Promise<void>): Promise<{ key: string; directory: string }> {
  await mkdir(root, { recursive: true });
  const directory = await fillAndPlace(join(root, "content.partial-"), fill, async (temp) => join(root, await filesKey(temp)));
  return { key: basename(directory), directory };
}

/** A hash of a directory's file names and bytes. */
async function filesKey(dir: string): Promise<string> {
  const hash = createHash("sha256").update("files-v1");
  for (const name of (await readdir(dir)).sort()) {
    hash.update(`\0${name}\0`);
    for await (const chunk of createReadStream(join(dir, name))) hash.update(chunk as Buffer);
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * `fill` writes into a private directory (unique across processes too, so two renders filling
 * the same entry never share a folder), which is renamed to `place(temp)` when complete, so a
 * crash or a concurrent render never leaves a half-filled entry.
 */
async function fillAndPlace(tempPrefix: string, fill: (tempDir: string) => Promise<void>, place: (tempDir: string) => Promise<string>): Promise<string> {
  const temp = await mkdtemp(tempPrefix);
  try {
    await fill(temp);
    const dir = await place(temp);
    await rename(temp, dir).catch(async (error: NodeJS.ErrnoException) => {
      // Another render filled it meanwhile: theirs is as good as ours.
      if (!(await exists(dir))) throw error;
      await rm(temp, { recursive: true, force: true });
    });
    return dir;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
