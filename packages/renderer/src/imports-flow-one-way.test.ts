import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The renderer's folders in the order data flows through them: shared pieces first, then the
 * stages, then the render that runs them. A module may import from its own folder and from
 * folders before it, never after: a stage takes its part of what earlier stages made, and
 * nothing reaches back. Within the load stage its parts have an order of their own.
 */
const ORDER = [
  "common",
  "output",
  "1-load/composition",
  "1-load/serve",
  "1-load/local-web",
  "1-load/fonts",
  "1-load/browser",
  "1-load/media",
  "1-load",
  "2-plan",
  "3-capture",
  "4-encode",
  "5-assemble",
  "render",
  ".",
];

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The folder of ORDER a file belongs to: the longest that contains it. */
function folderOf(file: string): string {
  const dir = relative(root, dirname(file)).split(sep).join("/") || ".";
  const folder = ORDER.filter((candidate) => candidate === "." || dir === candidate || dir.startsWith(`${candidate}/`)).sort((a, b) => b.length - a.length)[0];
  if (!folder) throw new Error(`${dir} is in no folder of the pipeline order: add it to ORDER`);
  return folder === "." && dir !== "." ? dir : folder;
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from\s+|import\()["'](\.{1,2}\/[^"']+)\.js["']/g)].map((match) => resolve(dirname(file), `${match[1]}.ts`));
}

describe("imports flow one way", () => {
  it("every folder is in the pipeline order", () => {
    for (const file of sourceFiles(root)) expect(ORDER, relative(root, file)).toContain(folderOf(file));
  });

  it("no module imports from a folder later in the pipeline", () => {
    const backwards: string[] = [];
    for (const file of sourceFiles(root)) {
      const from = ORDER.indexOf(folderOf(file));
      for (const target of relativeImports(file)) {
        if (ORDER.indexOf(folderOf(target)) > from) backwards.push(`${relative(root, file)} imports ${relative(root, target)}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it("the check sees a backward import", () => {
    const encode = join(root, "4-encode", "encoder-args.ts");
    expect(ORDER.indexOf(folderOf(join(root, "render", "render.ts")))).toBeGreaterThan(ORDER.indexOf(folderOf(encode)));
    expect(ORDER.indexOf(folderOf(join(root, "1-load", "browser", "composition-page.ts")))).toBeLessThan(ORDER.indexOf(folderOf(encode)));
  });
});
