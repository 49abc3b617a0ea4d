import { readdir, stat } from "node:fs/promises";
import { UsageError } from "../usage-error.js";

/** Files that make a folder a project already: one that may be given the agent file, nothing else. */
const PROJECT_MARKERS = ["index.html", "package.json"];

/** Entries that leave a folder as good as empty: a new repository's `.git`. */
const IGNORED = new Set([".git"]);

/**
 * Where `compose init` may write: a folder that does not exist or is empty ("new"), or one that
 * holds a project already ("project", naming the file that says so). Anything else is refused.
 */
export type Target = { kind: "new" } | { kind: "project"; marker: string };

export async function inspectTarget(dir: string, shownAs: string): Promise<Target> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new UsageError(`${shownAs} cannot be read (${error.code ?? error.message})`);
  });
  if (info === undefined) return { kind: "new" };
  if (!info.isDirectory()) throw new UsageError(`${shownAs} is a file: give a new or empty directory`);
  const entries = (await readdir(dir)).filter((entry) => !IGNORED.has(entry));
  if (entries.length === 0) return { kind: "new" };
  const marker = PROJECT_MARKERS.find((name) => entries.includes(name));
  if (marker !== undefined) return { kind: "project", marker };
  throw new UsageError(`${shownAs} is not empty: give a new or empty directory (or a project with an index.html or package.json, to add its AGENTS.md)`);
}
