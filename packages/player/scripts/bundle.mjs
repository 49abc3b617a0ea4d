// Bundles the player into self-contained ES modules: dist/compose-player.js (the element, with
// the page runtime inside it as text) and dist/player-core.js (the class the studio draws its own
// controls around). Nothing of the workspace is left to import: the npm package has no dependencies.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";

const runtime = readFileSync(createRequire(import.meta.url).resolve("@compose/runtime/runtime.iife.js"), "utf8");
// "source": the workspace's packages from their TypeScript sources (their exports' condition), not tsc's output.
const common = { bundle: true, format: "esm", target: ["chrome120", "firefox115"], conditions: ["source"], logLevel: "warning", legalComments: "none" };

await build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/compose-player.js", define: { __COMPOSE_RUNTIME__: JSON.stringify(runtime) } });
await build({ ...common, entryPoints: ["src/core.ts"], outfile: "dist/player-core.js" });
