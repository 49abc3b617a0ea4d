/**
 * A command loads what it uses, no more: the browser driver, the render pipeline, the producer's
 * server and the WebAssembly font decoder cost about half a second of CPU to load, which `--version`,
 * `--help`, a refused flag, `compose lint`, `compose info` of a composition whose source settles it and
 * `compose init` would otherwise pay on every start.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN, startNode } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";

const HOOK = pathToFileURL(join(REPO_ROOT, "test/support/report-resolved-modules.mjs")).href;
const REGISTER = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(HOOK)})`;

/** What only rendering, serving or decoding fonts needs. */
const HEAVY = [
  /\/node_modules\/(puppeteer-core|playwright-core|@puppeteer\/browsers|wawoff2|ioredis|bullmq)\//,
  /\/packages\/renderer\/dist\/index\.js$/,
  /\/packages\/producer\/dist\/index\.js$/,
];

let project: TempProject;
beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "start", duration: 0.1 }) });
});
afterAll(() => project?.remove());

async function loadedModules(args: string[]): Promise<{ code: number | null; modules: string[] }> {
  const result = await startNode(["--import", REGISTER, CLI_BIN, ...args], { cwd: project.dir }).result;
  const modules = result.stderr
    .split("\n")
    .filter((line) => line.startsWith("loaded "))
    .map((line) => line.slice("loaded ".length));
  return { code: result.code, modules };
}

describe("a command's start", () => {
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
