import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { z } from "zod";

/** Where compose keeps what it makes once for many renders (fonts, extracted video frames): $COMPOSE_CACHE_DIR, else the XDG cache. */
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

/**
 * Every file of an entry with its size and sha256, written into the entry last (and atomically)
 * when it is filled: an entry without a readable manifest is unfinished, and a file that differs
 * from it is damaged. A dotfile, so the frames server never serves it.
 */
const MANIFEST = ".manifest.json";

const manifestSchema = z.strictObject({
  files: z.record(z.string(), z.strictObject({ size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** How an entry is checked each time it is used. */
export interface CacheCheck {
  /** Folders of the entry that others write in while using it (fontconfig's own cache): not part of it. */
  scratch?: readonly string[];
  /**
   * Whether every file's bytes are compared to their hashes too, or only the names and sizes (an
   * entry too large to read at every use; its files are then checked as they are read, `holdsBytes`).
   */
  hashes: boolean;
}

/** A cache entry checked against its manifest (or just filled). */
export interface CacheEntry {
  dir: string;
  manifest: Manifest;
  /** The directory's inode when it was checked: a refill replaces only the entry found damaged, never one another process has just filled. */
  ino: number;
  /** What was wrong with the entry that was there, when it was filled again: for the render's `cache-rebuilt` notice. */
  rebuilt?: string;
}

/** Tells a render that `entry` (`what` it holds) was found damaged and made again: one `cache-rebuilt` warning. */
export function warnIfRebuilt(entry: CacheEntry, what: string, warn: (code: string, message: string) => void): void {
  if (entry.rebuilt !== undefined) warn("cache-rebuilt", `compose's cache of ${what} was damaged and has been made again: ${entry.rebuilt} (${entry.dir})`);
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The files of `dir` by path relative to it ("/"-separated), the manifest and the scratch folders left out; undefined for what is no regular file. */
async function entryFiles(dir: string, scratch: readonly string[], prefix = ""): Promise<Map<string, number | undefined>> {
  const files = new Map<string, number | undefined>();
  for (const item of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}${item.name}`;
    if (path === MANIFEST || scratch.includes(path)) continue;
    if (item.isDirectory()) for (const [name, size] of await entryFiles(dir, scratch, `${path}/`)) files.set(name, size);
    else files.set(path, item.isFile() ? (await lstat(join(dir, path))).size : undefined);
  }
  return files;
}

/** Hashes every file of a filled directory and writes its manifest, last, through a rename. */
async function writeManifest(dir: string): Promise<Manifest> {
  const manifest: Manifest = { files: {} };
  for (const path of [...(await entryFiles(dir, [])).keys()].sort()) {
    const bytes = await readFile(join(dir, path));
    manifest.files[path] = { size: bytes.length, sha256: sha256(bytes) };
  }
  await writeFile(join(dir, `${MANIFEST}.partial`), JSON.stringify(manifest));
  await rename(join(dir, `${MANIFEST}.partial`), join(dir, MANIFEST));
  return manifest;
}

async function readManifest(dir: string): Promise<Manifest | string> {
  const text = await readFile(join(dir, MANIFEST), "utf8").catch(() => undefined);
  if (text === undefined) return "it has no manifest (its fill never finished)";
  try {
    return manifestSchema.parse(JSON.parse(text));
  } catch {
    return `its manifest ${MANIFEST} is damaged`;
  }
}

/** Whether `bytes` are what the entry's manifest says `path` holds. */
export function holdsBytes(entry: CacheEntry, path: string, bytes: Buffer): boolean {
  const expected = Object.hasOwn(entry.manifest.files, path) ? entry.manifest.files[path] : undefined;
  return expected !== undefined && expected.size === bytes.length && expected.sha256 === sha256(bytes);
}

/** The entry at `dir` as its manifest has it, or what is wrong with it; undefined when there is none. */
async function checkEntry(dir: string, check: CacheCheck): Promise<CacheEntry | { damage: string; ino: number } | undefined> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) return undefined;
  const damaged = (damage: string) => ({ damage, ino: info.ino });
  const manifest = await readManifest(dir);
  if (typeof manifest === "string") return damaged(manifest);
  const found = await entryFiles(dir, check.scratch ?? []).catch(() => undefined);
  if (!found) return damaged("it cannot be read");
  for (const [path, { size }] of Object.entries(manifest.files)) {
    if (!found.has(path)) return damaged(`${path} is missing`);
    const actual = found.get(path);
    if (actual === undefined) return damaged(`${path} is not a regular file`);
    if (actual !== size) return damaged(`${path} is ${actual} bytes, not the ${size} it was written with`);
  }
  for (const path of found.keys()) if (!Object.hasOwn(manifest.files, path)) return damaged(`${path} was added after it was filled`);
  const entry = { dir, manifest, ino: info.ino };
  if (check.hashes) {
    for (const path of Object.keys(manifest.files)) {
      const bytes = await readFile(join(dir, path)).catch(() => undefined);
      if (!bytes || !holdsBytes(entry, path, bytes)) return damaged(`${path} does not hold the bytes it was written with`);
    }
  }
  return entry;
}

/** Removes an entry found damaged, unless another process has already replaced it. */
export function removeDamaged(entry: Pick<CacheEntry, "dir" | "ino">): Promise<void> {
  return removeDamagedAt(entry.dir, entry.ino);
}

async function removeDamagedAt(dir: string, ino: number): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.ino !== ino) return;
  const aside = await mkdtemp(`${dir}.damaged-`);
  // Renamed into a fresh folder first: readers see the whole entry or none of it, never half of one.
  await rename(dir, join(aside, "entry")).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  await rm(aside, { recursive: true, force: true });
}

/** Entries being checked, filled or refilled by this process: a second request for one of these waits for the first. */
const pending = new Map<string, Promise<CacheEntry>>();

function once(task: string, run: () => Promise<CacheEntry>): Promise<CacheEntry> {
  const running = pending.get(task) ?? run().finally(() => pending.delete(task));
  pending.set(task, running);
  return running;
}

/**
 * The cache entry `dir`, checked against its manifest; filled by `fill` when there is none, and
 * filled again when the one there is unfinished or damaged (`rebuilt` then says what was wrong).
 */
export function cachedDirectory(dir: string, fill: (tempDir: string) => Promise<void>, check: CacheCheck): Promise<CacheEntry> {
  return once(`use ${dir}`, async () => {
    const found = await checkEntry(dir, check);
    if (found && !("damage" in found)) return found;
    if (found) await removeDamagedAt(dir, found.ino);
    return { ...(await fillEntry(dir, fill, check)), ...(found && { rebuilt: found.damage }) };
  });
}

/**
 * Fills `entry` again after one of its files was found damaged as it was read (`damage` says
 * which, and how). Renders of this process that find it damaged meanwhile share the refill.
 */
export function refillDirectory(entry: CacheEntry, damage: string, fill: (tempDir: string) => Promise<void>, check: CacheCheck): Promise<CacheEntry> {
  // Apart from a check of the same entry that may be running: that one could find it sound, its damage being in bytes it does not read.
  return once(`refill ${entry.dir}`, async () => {
    await removeDamaged(entry);
    return { ...(await fillEntry(entry.dir, fill, check)), rebuilt: damage };
  });
}

async function fillEntry(dir: string, fill: (tempDir: string) => Promise<void>, check: CacheCheck): Promise<CacheEntry> {
  await mkdir(dirname(dir), { recursive: true });
  return fillAndPlace(`${dir}.partial-`, fill, async () => dir, check);
}

/**
 * Fills a cache entry named after the files it holds, for a source whose bytes may change under
 * the same name (a URL): a render then shows what the source holds now, and renders that find the
 * same content share one entry. Resolves to the entry's name under `root`, and the entry.
 */
export async function contentAddressedDirectory(
  root: string,
  fill: (tempDir: string) => Promise<void>,
  check: CacheCheck,
): Promise<{ key: string; entry: CacheEntry }> {
  await mkdir(root, { recursive: true });
  const entry = await fillAndPlace(join(root, "content.partial-"), fill, async (_, manifest) => join(root, keyOf(["files-v2", manifest])), check);
  return { key: basename(entry.dir), entry };
}

/** How often a filled entry is placed where others keep placing damaged ones before giving up. */
const PLACE_ATTEMPTS = 3;

/**
 * `fill` writes into a private directory (unique across processes too, so two renders filling
 * the same entry never share a folder), whose manifest is written last; it is then renamed to
 * `place(temp)`, so a crash or a concurrent render never leaves a half-filled entry. When another
 * render placed the entry meanwhile, theirs is used, unless it is damaged.
 */
async function fillAndPlace(
  tempPrefix: string,
  fill: (tempDir: string) => Promise<void>,
  place: (tempDir: string, manifest: Manifest) => Promise<string>,
  check: CacheCheck,
): Promise<CacheEntry> {
  const temp = await mkdtemp(tempPrefix);
  try {
    await fill(temp);
    const manifest = await writeManifest(temp);
    const dir = await place(temp, manifest);
    for (let attempt = 1; ; attempt++) {
      const placed = await rename(temp, dir).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if ((error.code !== "ENOTEMPTY" && error.code !== "EEXIST") || attempt === PLACE_ATTEMPTS) throw error;
          return false;
        },
      );
      if (placed) return { dir, manifest, ino: (await stat(dir)).ino };
      const theirs = await checkEntry(dir, check);
      if (theirs && !("damage" in theirs)) {
        await rm(temp, { recursive: true, force: true });
        return theirs;
      }
      if (theirs) await removeDamagedAt(dir, theirs.ino);
    }
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}
