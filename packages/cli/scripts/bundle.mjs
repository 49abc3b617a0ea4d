// Bundles the preview page into one script for the browser, and the CLI into dist/bundle/
// (bin/compose.js starts dist/bundle/main.js). A command is its own chunk, loaded when it runs, so
// a start reads a few files instead of about 600 modules: about half a second of CPU less on every
// `compose render`. dist/bundle/meta.json says which sources each chunk holds. Both are made from
// the TypeScript sources, not from tsc's output, so the container image builds them without
// type-checking the tree (npm test does that).
import { rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

/** The workspace's packages from their TypeScript sources: each export's "source" condition. */
const FROM_SOURCES = ["source"];

await build({
  entryPoints: ["src/preview/page/main.ts"],
  bundle: true,
  format: "iife",
  target: ["chrome120", "firefox115"],
  outfile: "dist/preview/page/preview.js",
  conditions: FROM_SOURCES,
  logLevel: "warning",
});

// Chunks are named by their content: without this, every build after a change would leave the last one's beside it.
rmSync("dist/bundle", { recursive: true, force: true });
const cli = await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: "dist/bundle",
  // Loaded from node_modules as they are: a native module, a WebAssembly decoder that reads its own
  // file, the Redis backend's packages (read only by a distributed server), and ws's optional
  // native helpers.
  external: ["better-sqlite3", "wawoff2", "bullmq", "ioredis", "bufferutil", "utf-8-validate"],
  // The CommonJS packages inside call require() for Node's own modules.
  banner: { js: 'import { createRequire as __composeRequire } from "node:module"; const require = __composeRequire(import.meta.url);' },
  sourcemap: "linked",
  conditions: FROM_SOURCES,
  metafile: true,
  logLevel: "warning",
});
writeFileSync("dist/bundle/meta.json", JSON.stringify(cli.metafile));
