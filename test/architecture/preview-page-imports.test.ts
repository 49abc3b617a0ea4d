/**
 * The preview page's panels form no circle: each reads and writes the page's state through one
 * store (app-state.ts) and follows its changes by subscribing, so none imports another. A panel
 * may import the store, the player (player.ts) and helpers; only the entry (main.ts) imports the
 * panels, to bind them. The imports are read by the TypeScript compiler, type-only ones included.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const pageDir = join(import.meta.dirname, "..", "..", "packages", "cli", "src", "preview", "page");

/** The modules that show a part of the page, each bound once by the entry. */
const PANELS = ["findings.ts", "project.ts", "render-panel.ts", "timeline.ts", "variables-panel.ts", "viewer.ts"];
const ENTRY = "main.ts";

const modules = readdirSync(pageDir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));

/** The page's modules a module imports (`./x.js` is x.ts), by file name. */
function pageImports(name: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(pageDir, name), "utf8"), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => /^\.\/[^/]+\.js$/.test(specifier))
    .map((specifier) => basename(specifier).replace(/\.js$/, ".ts"));
}

const graph = new Map(modules.map((name) => [name, pageImports(name)]));

/** Every circle of imports, each as the modules around it, found by a depth-first walk. */
function circles(): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (name: string, path: string[]) => {
    const at = path.indexOf(name);
    if (at >= 0) return void found.push([...path.slice(at), name]);
    if (done.has(name)) return;
    for (const imported of graph.get(name) ?? []) visit(imported, [...path, name]);
    done.add(name);
  };
  for (const name of modules) visit(name, []);
  return found;
}

describe("the preview page's modules", () => {
  it("are read as the page is built: the entry, the panels and what they share", () => {
    expect(modules).toContain(ENTRY);
    for (const panel of PANELS) expect(modules, panel).toContain(panel);
    expect([...graph.get(ENTRY)!].sort()).toEqual([...PANELS].sort());
  });

  it("import one another in no circle", () => {
    expect(circles().map((circle) => circle.join(" -> "))).toEqual([]);
  });

  it("reach a panel only from the entry: no panel, nor anything a panel imports, imports a panel", () => {
    const panelImports = [...graph]
      .filter(([name]) => name !== ENTRY)
      .flatMap(([name, imports]) => imports.filter((imported) => PANELS.includes(imported)).map((panel) => `${name} imports ${panel}`));
    expect(panelImports).toEqual([]);
  });
});
