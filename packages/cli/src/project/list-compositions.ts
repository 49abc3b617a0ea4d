import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { extractCompositionMetadata } from "@compose/core";
import { RENDERS_FOLDER } from "./renders-folder.js";

/** How deep under the project folder compositions are looked for: scenes/intro.html, not deeper. */
const MAX_DEPTH = 2;
/** A folder with more HTML files than this is not read further (a dependency's docs, say). */
const MAX_FILES = 200;

function skipped(name: string): boolean {
  return name.startsWith(".") || name === "node_modules" || name === RENDERS_FOLDER;
}

/**
 * The HTML files under `root` that hold a composition element, as paths relative to it with `/`,
 * sorted: what the preview offers to switch to.
 */
export async function listCompositions(root: string): Promise<string[]> {
  const found: string[] = [];
  let read = 0;
  const walk = async (folder: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (skipped(entry.name) || read >= MAX_FILES) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if (entry.isFile() && /\.html?$/i.test(entry.name)) {
        read++;
        const html = await readFile(path, "utf8").catch(() => "");
        if (extractCompositionMetadata(html).id !== undefined) found.push(relative(root, path).split(sep).join("/"));
      }
    }
  };
  await walk(root, 1);
  return found.sort();
}
