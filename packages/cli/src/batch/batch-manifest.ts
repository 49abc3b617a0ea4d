import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { appendFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { RenderOptions, VariableValues } from "@compose/core";

/**
 * The record of a batch beside its outputs, one JSON line per finished row, so that `--resume`
 * renders only what is not already there from the same inputs. Append-only: a batch of 10,000
 * rows writes a line a row, not the whole record, and a line cut short by a crash is skipped.
 */
export const MANIFEST_NAME = ".compose-batch.jsonl";

export interface ManifestEntry {
  /** 1-based. */
  row: number;
  /** What the row was made from: the composition's files, the options, the row and its output. */
  key: string;
  output: string;
  status: "done" | "failed";
  sizeBytes?: number;
  code?: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** JSON with keys in order at every level, so equal values hash equally whatever order they came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Folders of a project that are never a composition's input: installed packages, hidden folders, renders. */
function isSkipped(name: string, depth: number): boolean {
  return name.startsWith(".") || name === "node_modules" || (depth === 0 && name === "renders");
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * One digest of every file of the project a composition may read, whatever names it (a script, a
 * variable): its folder's regular files, but for installed packages, hidden entries, a top-level
 * renders/, the folders of batches' outputs (those holding a manifest) and the `skipped` paths
 * (this batch's outputs and rows file). A change to any of them makes every row new again.
 */
export async function projectDigest(projectDir: string, skipped: readonly string[]): Promise<string> {
  const lines: string[] = [];
  const isOutside = (path: string) => skipped.some((skip) => path === skip || path.startsWith(`${skip}${sep}`));
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    if (depth > 0 && entries.some((entry) => entry.name === MANIFEST_NAME)) return;
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (isSkipped(entry.name, depth) || isOutside(path)) continue;
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if (entry.isFile()) lines.push(`${relative(projectDir, path)} ${await hashFile(path)}`);
    }
  };
  await walk(projectDir, 0);
  return sha256(lines.join("\n"));
}

/** The key of one row: what it is made from, so a row is done only when all of it is the same. */
export function rowKey(project: string, options: RenderOptions, values: VariableValues, output: string): string {
  const { variables: _ignored, ...shared } = options;
  return sha256(canonical({ project, options: shared, values, output }));
}

export interface Manifest {
  /** The last entry of each row (1-based) that the manifest holds. */
  entries: Map<number, ManifestEntry>;
  record(entry: ManifestEntry): Promise<void>;
}

function isEntry(value: unknown): value is ManifestEntry {
  const entry = value as Partial<ManifestEntry> | null;
  return typeof entry === "object" && entry !== null && typeof entry.row === "number" && typeof entry.key === "string" && typeof entry.output === "string";
}

/** Opens the manifest in `dir`: read as it is with `resume`, else started anew. */
export async function openManifest(dir: string, resume: boolean): Promise<Manifest> {
  const file = join(dir, MANIFEST_NAME);
  await mkdir(dir, { recursive: true });
  const entries = new Map<number, ManifestEntry>();
  if (resume) {
    const text = await readFile(file, "utf8").catch(() => "");
    for (const line of text.split("\n")) {
      try {
        const entry: unknown = JSON.parse(line);
        if (isEntry(entry)) entries.set(entry.row, entry);
      } catch {
        // A line cut short by a crash, or not ours: that row renders again.
      }
    }
  } else {
    await writeFile(file, "");
  }
  // Appends of one line each from one process: concurrent rows never interleave within a line.
  let writing = Promise.resolve();
  return {
    entries,
    record(entry) {
      entries.set(entry.row, entry);
      writing = writing.then(() => appendFile(file, `${JSON.stringify(entry)}\n`));
      return writing;
    },
  };
}

/** Whether a row's output is there as the manifest recorded it, made from the same key. */
export async function isDone(manifest: Manifest, row: number, key: string, output: string): Promise<boolean> {
  const entry = manifest.entries.get(row);
  if (entry?.status !== "done" || entry.key !== key || entry.output !== output) return false;
  const info = await stat(output).catch(() => undefined);
  if (!info) return false;
  return info.isDirectory() || info.size === entry.sizeBytes;
}

/** The folder every output lies in: where the manifest is kept. */
export function commonFolder(outputs: readonly string[]): string {
  const parts = outputs.map((output) => dirname(output).split(sep));
  const common: string[] = [];
  for (let i = 0; parts.every((segments) => i < segments.length && segments[i] === parts[0]![i]); i++) common.push(parts[0]![i]!);
  return common.join(sep) || sep;
}
