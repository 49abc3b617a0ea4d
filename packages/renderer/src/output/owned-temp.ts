import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Temporary directories of renders and their browsers, in the system's temporary directory. */
export const RENDER_TEMP = "compose-render-";
export const BROWSER_TEMP = "compose-browser-";

/**
 * A temporary directory named after this process (`<prefix><pid>-XXXXXX`), so that a later
 * render can tell it was left by a process that was killed and remove it.
 */
export function ownedTempDir(parent: string, prefix: string): Promise<string> {
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the directories under `parent` named by ownedTempDir(parent, prefix) for processes that no longer exist. */
export function removeOrphans(parent: string, prefix: string): Promise<void> {
  return removeOrphansMatching(parent, new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\d+)-`));
}

/** Removes the entries under `parent` whose name matches `pattern`, its first group a process id, for processes that no longer exist. */
export async function removeOrphansMatching(parent: string, pattern: RegExp): Promise<void> {
  const names = await readdir(parent).catch(() => []);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(pattern.exec(name)?.[1]);
      if (pid && pid !== process.pid && !alive(pid)) await rm(join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

/** What killed renders left in the temporary directory: removed once per process, at its first render. */
let swept: Promise<void> | undefined;
export function removeOrphanedTemp(): Promise<void> {
  swept ??= Promise.all([removeOrphans(tmpdir(), RENDER_TEMP), removeOrphans(tmpdir(), BROWSER_TEMP)]).then(() => undefined);
  return swept;
}
