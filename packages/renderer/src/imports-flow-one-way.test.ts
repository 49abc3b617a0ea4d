import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * What every stage uses, below the stages, each layer named for what it is: shared pieces, the
 * output's staging and checks, the project's web (its file server, the web answered from its
 * packages, fonts, the network policy), pages (browsers and the composition pages that seek and
 * capture), and media (probing, extraction).
 */
const LAYERS = ["common", "output", "web", "page", "media"];

/** The stages in the order data flows through them, then the render that runs them. */
const STAGES = ["1-load", "2-plan", "3-capture", "4-encode", "5-assemble", "render"];

/**
 * A module may import from its own folder and from folders before it, never after: a layer
 * serves the stages, a stage takes its part of what earlier stages made, and nothing reaches back.
 */
const ORDER = [...LAYERS, ...STAGES, "."];

/** The stages the render runs after loading: of the load stage they see its result alone. */
const AFTER_LOAD = ["2-plan", "3-capture", "4-encode", "5-assemble"];
const LOAD_RESULT = /^import type \{ LoadedComposition \} from "\.\.\/1-load\/load-composition\.js";$/;

/**
 * Where modules live, by name: what is not loading has a home of its own. Taking frames is
 * capture's (the image itself the page's), the audio mix is assemble's, the render's lifetime is
 * the render's, the plan's types are the plan's; pages, the project's web and media are layers.
 */
const HOMES: Record<string, string> = {
  "composition-page.ts": "page",
  "frame-capturer.ts": "page",
  "take-frame.ts": "3-capture",
  "project-server.ts": "web",
  "network-policy.ts": "web",
  "local-resolver.ts": "web",
  "default-fonts.ts": "web",
  "probe-source.ts": "media",
  "extract-frames.ts": "media",
  "audio-mix-args.ts": "5-assemble",
  "volume-envelope.ts": "5-assemble",
  "mix-audio.ts": "5-assemble",
  "render-context.ts": "render",
  "render-plan.ts": "2-plan",
  "shift-clips.ts": "2-plan",
};

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The folder of ORDER a file belongs to: its top folder under src (a layer or a stage), or "." for the entries. */
function folderOf(file: string): string {
  const [top, ...rest] = relative(root, file).split(sep);
  return rest.length === 0 ? "." : top!;
}

function relativeImports(file: string): Array<{ statement: string; target: string }> {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^.*(?:from\s+|import\()["'](\.{1,2}\/[^"']+)\.js["'].*$/gm)].map((match) => ({
    statement: match[0].trim(),
    target: resolve(dirname(file), `${match[1]}.ts`),
  }));
}

describe("imports flow one way", () => {
  it("every folder is a layer or a stage", () => {
    for (const file of sourceFiles(root)) expect(ORDER, relative(root, file)).toContain(folderOf(file));
  });

  it("no module imports from a folder later in the order", () => {
    const backwards: string[] = [];
    for (const file of sourceFiles(root)) {
      const from = ORDER.indexOf(folderOf(file));
      for (const { target } of relativeImports(file)) {
        if (ORDER.indexOf(folderOf(target)) > from) backwards.push(`${relative(root, file)} imports ${relative(root, target)}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it("the stages after loading take from the load stage only its result type", () => {
    const reaching: string[] = [];
    for (const file of sourceFiles(root).filter((path) => AFTER_LOAD.includes(folderOf(path)))) {
      for (const { statement, target } of relativeImports(file)) {
        if (folderOf(target) === "1-load" && !LOAD_RESULT.test(statement)) reaching.push(`${relative(root, file)}: ${statement}`);
      }
    }
    expect(reaching).toEqual([]);
  });

  it("each module lives in its layer or stage", () => {
    const found = new Map(sourceFiles(root).map((file) => [basename(file), folderOf(file)]));
    expect(Object.fromEntries(Object.keys(HOMES).map((name) => [name, found.get(name)]))).toEqual(HOMES);
  });

  it("the plan's types are declared in the plan stage", () => {
    const planTypes = readFileSync(join(root, "2-plan", "render-plan.ts"), "utf8");
    expect(planTypes).not.toMatch(/from "\.\.\/1-load\//);
    const declaredInLoad = sourceFiles(join(root, "1-load")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/export (?:interface|type) (\w+)/g)].map((match) => match[1]!),
    );
    expect(declaredInLoad.filter((name) => /(Plan|Settings)$/.test(name))).toEqual([]);
  });

  it("the checks see a backward import and a reach into loading", () => {
    const encode = join(root, "4-encode", "encoder-args.ts");
    expect(ORDER.indexOf(folderOf(join(root, "render", "render.ts")))).toBeGreaterThan(ORDER.indexOf(folderOf(encode)));
    expect(ORDER.indexOf(folderOf(join(root, "page", "composition-page.ts")))).toBeLessThan(ORDER.indexOf(folderOf(encode)));
    expect(folderOf(join(root, "1-load", "composition", "read-composition.ts"))).toBe("1-load");
    expect(LOAD_RESULT.test('import type { LoadedComposition } from "../1-load/load-composition.js";')).toBe(true);
    expect(LOAD_RESULT.test('import { loadComposition } from "../1-load/load-composition.js";')).toBe(false);
    expect(LOAD_RESULT.test('import type { LoadedComposition, LoadRequest } from "../1-load/load-composition.js";')).toBe(false);
  });
});
