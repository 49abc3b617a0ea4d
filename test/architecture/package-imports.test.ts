/**
 * The packages depend on each other one way, as DESIGN.md lays them out: core at the bottom, the
 * page runtime on core, the renderer on both, the player on those, the server on the renderer, the
 * CLI on everything.
 * Inside the producer its folders are layers, one way too; and the CLI's render flags, which any
 * command may load, stay off the producer. (Inside the renderer,
 * packages/renderer/src/imports-flow-one-way.test.ts checks its stages.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ORDER = ["core", "runtime", "renderer", "player", "producer", "cli"];
const packagesDir = join(import.meta.dirname, "..", "..", "packages");

/**
 * The producer's folders, bottom to top: settings; the shutdown's grace; where compositions and
 * outputs are on disk; one render request; its webhook; what outlives the process of requests,
 * batches and webhooks (the state store); the backends that queue requests (in process, then
 * across machines on Redis); the HTTP layer over them; the OpenAPI document of it all. The files
 * at the top of src (server.ts, index.ts) put them together, above every layer.
 */
const PRODUCER_LAYERS = ["config", "lifetime", "project", "output", "jobs", "webhooks", "state", "queue", "distributed", "http", "openapi"];
const producerDir = join(packagesDir, "producer", "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** A package's modules, tests left out: a test may import whatever it drives. */
const modulesOf = (dir: string) => sourceFiles(dir).filter((file) => !file.endsWith(".test.ts"));

/** What a module imports, statically or not, and re-exports: the specifiers as written. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map((match) => match[1]!);
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the sources); undefined for a package's. */
function relativeTarget(from: string, specifier: string): string | undefined {
  return specifier.startsWith(".") ? resolve(dirname(from), specifier).replace(/\.js$/, ".ts") : undefined;
}

/** A producer module's layer: its folder's place in PRODUCER_LAYERS, or above them all for the files at the top of src. */
function producerLayer(file: string): number {
  const [first, ...rest] = relative(producerDir, file).split(sep);
  return rest.length === 0 ? PRODUCER_LAYERS.length : PRODUCER_LAYERS.indexOf(first!);
}

/** The modules `roots` are and every module they reach through relative imports. */
function reachedFrom(roots: string[]): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const specifier of importsOf(file)) {
      const target = relativeTarget(file, specifier);
      if (target !== undefined) visit(target);
    }
  };
  roots.forEach(visit);
  return reached;
}

describe("package imports", () => {
  it.each(ORDER)("%s imports only packages below it", (name) => {
    const below = ORDER.slice(0, ORDER.indexOf(name) + 1);
    const upward = sourceFiles(join(packagesDir, name, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/from\s+["']@compose\/([a-z]+)/g)]
        .map((match) => match[1]!)
        .filter((imported) => !below.includes(imported))
        .map((imported) => `${file.slice(packagesDir.length + 1)} imports @compose/${imported}`),
    );
    expect(upward).toEqual([]);
  });
});

describe("the producer's layers", () => {
  it("are its folders, every one", () => {
    const folders = readdirSync(producerDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...PRODUCER_LAYERS].sort());
  });

  it("each import only from their own layer and the layers below it", () => {
    const upward = modulesOf(producerDir).flatMap((file) =>
      importsOf(file)
        .map((specifier) => relativeTarget(file, specifier))
        .filter((target): target is string => target !== undefined && producerLayer(target) > producerLayer(file))
        .map((target) => `${relative(producerDir, file)} imports ${relative(producerDir, target)}`),
    );
    expect(upward).toEqual([]);
  });
});

describe("the CLI's render flags", () => {
  it("reach nothing of the producer, directly or through the CLI's other modules", () => {
    const renderFlags = modulesOf(join(packagesDir, "cli", "src", "render"));
    expect(renderFlags.length).toBeGreaterThan(0);
    const reaching = [...reachedFrom(renderFlags)].flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith("@compose/producer"))
        .map((specifier) => `${file.slice(packagesDir.length + 1)} imports ${specifier}`),
    );
    expect(reaching).toEqual([]);
  });
});
