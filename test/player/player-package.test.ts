/// <reference lib="dom" />
/**
 * @compose/player as npm packs it: the tarball holds the bundles and their types and nothing of the
 * workspace; installed offline into an empty folder, it plays a composition from a plain HTML page
 * and from a bundler project (esbuild), type-checked against the package's own types, in chromium
 * and firefox-esr.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/project.js";
import { PLAYER_IDLE, playerPage } from "../support/player-project.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { BROWSERS, openWebPage } from "../support/web-browsers.js";

const run = promisify(execFile);
const PLAYER_DIR = join(REPO_ROOT, "packages/player");

let work: string;
let tarball: string;
let packed: string[];
let app: string;
let server: StaticServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "compose-player-package-"));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: PLAYER_DIR });
  const [pack] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, pack!.filename);
  packed = pack!.files.map((file) => file.path).sort();

  // An empty folder, the package installed from the tarball alone: it has no dependency to fetch.
  app = join(work, "app");
  await mkdir(app);
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "player-app", private: true, type: "module" }));
  await run("npm", ["install", tarball, "--offline", "--no-audit", "--no-fund"], { cwd: app });
  await cp(join(REPO_ROOT, "examples/lower-third"), join(app, "card"), { recursive: true });
  await writeFile(
    join(app, "plain.html"),
    playerPage(`<compose-player id="player" src="card/index.html" controls></compose-player>`, "node_modules/@compose/player/dist/compose-player.js"),
  );
  await writeFile(
    join(app, "main.ts"),
    `import "@compose/player";
import type { ComposePlayerElement } from "@compose/player";

const player: ComposePlayerElement = document.createElement("compose-player");
player.id = "player";
player.src = "card/index.html";
player.variables = { name: "Bundled" };
player.addEventListener("error", (event) => console.error(event.detail.code, event.detail.message));
document.body.append(player);
`,
  );
  await build({ absWorkingDir: app, entryPoints: ["main.ts"], bundle: true, format: "esm", outfile: "dist/main.js", logLevel: "silent" });
  await writeFile(
    join(app, "bundled.html"),
    `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="dist/main.js"></script></head><body></body></html>`,
  );
  server = await serveStatic(app);
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs in the page: the lower third's name in the frame the player shows, and its duration. */
const SHOWN = `() => { const player = document.getElementById("player"); return { duration: player.duration, name: player.shadowRoot.querySelector("iframe.composition:not(.loading)").contentDocument.getElementById("name").textContent }; }`;

describe("the npm package", () => {
  it("holds the bundles, their types and its manifest, nothing else", () => {
    expect(packed.filter((path) => !path.startsWith("dist/types/"))).toEqual(["README.md", "dist/compose-player.js", "dist/player-core.js", "package.json"]);
    expect(packed).toContain("dist/types/index.d.ts");
  });

  it("installs with no dependency, and its bundles import nothing", async () => {
    expect((await readdir(join(app, "node_modules"))).filter((name) => !name.startsWith("."))).toEqual(["@compose"]);
    for (const bundle of ["compose-player.js", "player-core.js"]) {
      const text = await import("node:fs/promises").then(({ readFile }) => readFile(join(app, "node_modules/@compose/player/dist", bundle), "utf8"));
      expect(text, bundle).not.toMatch(/^\s*import\s|\bimport\(|\bfrom\s*["']/m);
    }
  });

  it("type-checks a project that uses it against its own types", async () => {
    const tsc = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    const checked = await run(
      process.execPath,
      [tsc, "--noEmit", "--strict", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", "--lib", "es2022,dom,dom.iterable", "main.ts"],
      { cwd: app },
    ).catch((error: { stdout: string }) => error);
    expect("stdout" in checked ? checked.stdout : "").toBe("");
  });
});

describe.each(BROWSERS)("the installed package in %s", (browser) => {
  it.each([
    ["a plain HTML page", "plain.html", "Ada Lovelace"],
    ["a page of a bundler project", "bundled.html", "Bundled"],
  ])("plays the composition from %s", async (_, page, name) => {
    const web = await openWebPage(browser, `${server.url}${page}`);
    try {
      await web.run(PLAYER_IDLE, "#player");
      expect(await web.run(SHOWN)).toEqual({ duration: 3, name });
    } finally {
      await web.close();
    }
  });
});
