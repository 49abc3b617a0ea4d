/**
 * A command loads what it uses, no more: the browser driver, the render pipeline, the producer's
 * server and the WebAssembly font decoder cost about half a second of CPU to load, which `--version`,
 * `--help`, a refused flag, `compose lint`, `compose info` of a composition whose source settles it and
 * `compose init` would otherwise pay on every start. Nor does a run declare the commands it does not
 * name (`--version` declares none, `compose --help` all, which it lists), and a command's help or a
 * refused flag loads the option table without the composition parser behind the rest of core.
 * `compose` runs a bundle: what a run loaded is the sources of the chunks it loaded, as the
 * bundle's metafile lists them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, startNode } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const HOOK = pathToFileURL(join(REPO_ROOT, "test/support/report-resolved-modules.mjs")).href;
const REGISTER = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(HOOK)})`;

/** What only rendering, serving or decoding fonts needs. */
const HEAVY = [
  /\/node_modules\/(puppeteer-core|playwright-core|@puppeteer\/browsers|wawoff2|ioredis|bullmq)\//,
  /\/packages\/renderer\/src\/index\.ts$/,
  /\/packages\/producer\/src\/index\.ts$/,
];

/** A command's own module, which declares it: `render` of .../commands/render.ts. */
const COMMAND_MODULE = /\/packages\/cli\/src\/commands\/([a-z]+)\.ts$/;

/** What reading a composition needs and reading flags does not: the HTML parser, and core's index, which loads it. */
const PARSER = [/\/node_modules\/parse5\//, /\/packages\/core\/src\/index\.ts$/];

const EVERY_COMMAND = ["benchmark", "docker", "doctor", "fonts", "info", "init", "lint", "mcp", "preview", "render", "serve", "snapshot", "worker"];

let project: TempProject;
beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "start", duration: 0.1 }) });
});
afterAll(() => project?.remove());

const CLI_DIR = join(REPO_ROOT, "packages/cli");
const BUNDLE_META = JSON.parse(readFileSync(join(CLI_DIR, "dist/bundle/meta.json"), "utf8")) as {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
};

/** A loaded module's sources: a chunk's, by the metafile (whose paths are the CLI package's), or the module itself. */
function sourcesOf(url: string): string[] {
  const chunk = url.startsWith("file:") ? BUNDLE_META.outputs[fileURLToPath(url).slice(CLI_DIR.length + 1)] : undefined;
  if (chunk === undefined) return [url];
  return Object.keys(chunk.inputs).map((input) => pathToFileURL(resolve(CLI_DIR, input)).href);
}

async function loadedModules(args: string[]): Promise<{ code: number | null; modules: string[] }> {
  const result = await startNode(["--import", REGISTER, CLI_BIN, ...args], { cwd: project.dir }).result;
  const modules = result.stderr
    .split("\n")
    .filter((line) => line.startsWith("loaded "))
    .flatMap((line) => sourcesOf(line.slice("loaded ".length)));
  return { code: result.code, modules };
}

describe("a command's start", () => {
  it("runs a bundle that holds the last build's chunks only", () => {
    const built = Object.keys(BUNDLE_META.outputs).map((output) => output.slice("dist/bundle/".length));
    expect(readdirSync(join(CLI_DIR, "dist/bundle")).sort()).toEqual([...built, "meta.json"].sort());
  });

  it.each([
    [["--version"], 0],
    [["--help"], 0],
    [["render", "--fps", "25"], 2],
    [["lint", "."], 0],
    // The source settles this composition's duration: info loads no page, so no browser driver.
    [["info", "."], 0],
    [["snapshot", "--at", "soon"], 2],
    [["init", "--list"], 0],
  ])("compose %j loads no browser driver, render pipeline, server or font decoder", async (args, code) => {
    const run = await loadedModules(args);
    expect(run.code).toBe(code);
    // The hook did see the command's own modules: an empty list would pass for the wrong reason.
    expect(run.modules.some((url) => url.includes("/node_modules/commander/"))).toBe(true);
    expect(run.modules.filter((url) => HEAVY.some((heavy) => heavy.test(url)))).toEqual([]);
  });
});

describe("what a run declares", () => {
  it.each([
    [["--version"], 0, []],
    [["--help"], 0, EVERY_COMMAND],
    [["render", "--help"], 0, ["render"]],
    [["help", "info"], 0, ["info"]],
    [["render", "--fps", "25"], 2, ["render"]],
    [["lint", "."], 0, ["lint"]],
    [["rendr"], 2, EVERY_COMMAND],
  ])("compose %j (exit %i) declares %j", async (args, code, commands) => {
    const run = await loadedModules(args);
    expect(run.code).toBe(code);
    expect(run.modules.flatMap((url) => COMMAND_MODULE.exec(url)?.[1] ?? []).sort()).toEqual(commands);
  });

  it.each([
    [["--version"], 0],
    [["render", "--help"], 0],
    [["info", "--help"], 0],
    [["render", "--fps", "25"], 2],
    [["render", "--variables", "{"], 2],
    [["snapshot", "--help"], 0],
  ])("compose %j loads no composition parser", async (args, code) => {
    const run = await loadedModules(args);
    expect(run.code).toBe(code);
    expect(run.modules.some((url) => url.includes("/node_modules/commander/"))).toBe(true);
    expect(run.modules.filter((url) => PARSER.some((parser) => parser.test(url)))).toEqual([]);
  });
});
