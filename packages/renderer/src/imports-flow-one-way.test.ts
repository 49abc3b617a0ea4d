import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
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

/**
 * The load stage only loads. What is not loading has its own stage, named here by module:
 * taking frames is capture's, the audio mix and its volume envelopes are assemble's, the
 * render's lifetime is the render's, and the plan's types are the plan's.
 */
const HOMES: Record<string, string> = {
  "frame-capturer.ts": "3-capture",
  "take-frame.ts": "3-capture",
  "audio-mix.ts": "5-assemble",
  "volume-envelope.ts": "5-assemble",
  "mix-audio.ts": "5-assemble",
  "render-context.ts": "render",
  "render-plan.ts": "2-plan",
  "shift-clips.ts": "2-plan",
};

/** What the plan takes from loading: facts the load found, not decisions; every other type of the plan is declared in 2-plan. */
const LOAD_FACTS_IN_THE_PLAN = ["AudioClip", "CaptureMode", "HdrTransfer"];

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

  it("the load stage keeps only loading: capture, the audio mix, the render's lifetime and the plan live in their stages", () => {
    const found = new Map(sourceFiles(root).map((file) => [basename(file), folderOf(file)]));
    expect(Object.fromEntries(Object.keys(HOMES).map((name) => [name, found.get(name)]))).toEqual(HOMES);
  });

  it("the plan's types are declared in the plan stage", () => {
    const planTypes = readFileSync(join(root, "2-plan", "render-plan.ts"), "utf8");
    const fromLoad = [...planTypes.matchAll(/import type \{([^}]+)\} from "\.\.\/1-load\//g)].flatMap((match) => match[1]!.split(",").map((name) => name.trim()));
    expect(fromLoad.sort()).toEqual(LOAD_FACTS_IN_THE_PLAN);
    const declaredInLoad = sourceFiles(join(root, "1-load")).flatMap((file) => [...readFileSync(file, "utf8").matchAll(/export (?:interface|type) (\w+)/g)].map((match) => match[1]!));
    expect(declaredInLoad.filter((name) => /(Plan|Settings)$/.test(name))).toEqual([]);
  });

  it("the check sees a backward import", () => {
    const encode = join(root, "4-encode", "encoder-args.ts");
    expect(ORDER.indexOf(folderOf(join(root, "render", "render.ts")))).toBeGreaterThan(ORDER.indexOf(folderOf(encode)));
    expect(ORDER.indexOf(folderOf(join(root, "1-load", "browser", "composition-page.ts")))).toBeLessThan(ORDER.indexOf(folderOf(encode)));
  });
});
