/**
 * The packages depend on each other one way, as DESIGN.md lays them out: core at the bottom, the
 * page runtime on core, the renderer on both, the server on the renderer, the CLI on everything.
 * (Inside the renderer, packages/renderer/src/imports-flow-one-way.test.ts checks its stages.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ORDER = ["core", "runtime", "renderer", "producer", "cli"];
const packagesDir = join(import.meta.dirname, "..", "..", "packages");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
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
