/**
 * `compose mcp` driven by the protocol SDK's own client over stdio, as an agent's client drives it:
 * the tools and their inputs (render's are every option of core's table), a broken composition's
 * lint, a snapshot's contact sheet as an image, a render with progress notifications, a render
 * cancelled through the protocol, and mistakes told in the CLI's own words.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, lintOutputSchema, RENDER_OPTIONS, renderFinishedEventSchema, snapshotOutputSchema, type RenderOptionField } from "@compose/core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlagField } from "../../packages/cli/src/render/cli-flags.js";
import { fieldsOf, flagName } from "../../packages/cli/src/render/flag-options.js";
import { childEnv, CLI_BIN, runCli, taggedProcesses } from "../support/cli.js";
import { ffprobe, videoStream } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createCacheDir } from "../support/test-media.js";

const MOVING = compositionHtml({
  id: "moving",
  duration: 0.5,
  backdrop: "#101828",
  css: `#box { position: absolute; left: 0; top: 70px; width: 40px; height: 40px; background: #ff8800; animation: go 0.5s linear both; }
        @keyframes go { to { transform: translateX(280px); } }`,
  body: `<div id="box"></div>`,
});
/** No data-width: not a composition lint accepts. */
const BROKEN = compositionHtml({ id: "broken", duration: 1 }).replace(' data-width="320"', "");
const LONG = compositionHtml({ id: "long", duration: 20, backdrop: "#000000" });

/** The flags of compose render that are no input of the render tool, each for a reason tools.ts gives. */
const NOT_RENDER_INPUTS = ["json", "quiet", "batch", "batchConcurrency", "failFast", "sharedFrames", "resume", "docker", "image", "maxConcurrentRenders"];

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
let transport: StdioClientTransport;
let client: Client;
const tag = randomUUID();

beforeAll(async () => {
  cache = await createCacheDir();
  project = await createProject(
    { "index.html": MOVING, "broken.html": BROKEN, "long/index.html": LONG, "scenes/intro.html": MOVING.replace('"moving"', '"intro"') },
    { prefix: "compose-mcp-" },
  );
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, "mcp"],
    cwd: project.dir,
    env: childEnv(cache.env, tag) as Record<string, string>,
    stderr: "pipe",
  });
  client = new Client({ name: "compose-test", version: "1.0.0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await project?.remove();
  await cache?.remove();
});

function call(name: string, args: Record<string, unknown>, options: Parameters<Client["callTool"]>[2] = {}): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }, undefined, options) as Promise<CallToolResult>;
}

function text(result: CallToolResult, index = 0): string {
  const block = result.content[index];
  if (block?.type !== "text") throw new Error(`content ${index} is not text: ${JSON.stringify(result.content)}`);
  return block.text;
}

/** What `compose ARGS` says on stderr, without its `error: `: the line a tool's error must be. */
async function cliError(args: string[]): Promise<string> {
  const run = await runCli(args, { cwd: project.dir, env: cache.env });
  expect(run.code, run.stderr).toBe(2);
  return run.stderr.trim().replace(/^error: /, "");
}

/** Resolves once `condition` holds, looking again every few milliseconds; the test's timeout ends a wait in vain. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("compose mcp", () => {
  it("is a command --help describes", async () => {
    const help = await runCli(["mcp", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Model Context Protocol server on standard input\s+and output/);
    expect(help.stdout).toContain("docs/agents.md");
  });

  it("refuses a folder that does not exist, before serving", async () => {
    const run = await runCli(["mcp", "nowhere"], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: nowhere does not exist; give the folder the tools' paths are relative to\n");
  });

  it("offers list_compositions, info, lint, snapshot and render, each taking a path", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["list_compositions", "info", "lint", "snapshot", "render"]);
    for (const tool of tools) expect(tool.inputSchema.properties, tool.name).toHaveProperty("path");
  });
});

describe("the render tool's inputs", () => {
  let render: Tool;
  beforeAll(async () => {
    render = (await client.listTools()).tools.find((tool) => tool.name === "render")!;
  });

  it("are every render option of core's table, typed by its schema, but --docker", () => {
    const properties = render.inputSchema.properties as Record<string, Record<string, unknown>>;
    const offered = (Object.keys(RENDER_OPTIONS) as RenderOptionField[]).filter((field) => field !== "docker");
    for (const field of offered) {
      expect(properties, `render option ${field}`).toHaveProperty(field);
      expect(properties[field]).toMatchObject(jsonSchema(RENDER_OPTIONS[field].schema));
    }
  });

  it("are every flag of compose render but those of the terminal, the batch and the container, which its description names", () => {
    const expected = fieldsOf("render").filter((field) => !NOT_RENDER_INPUTS.includes(field));
    expect(Object.keys(render.inputSchema.properties!).sort()).toEqual(["path", ...expected].sort());
    // --max-concurrent-renders is hidden from compose render --help too.
    const told = /Not offered here: (.*)$/.exec(render.description ?? "")?.[1] ?? "";
    for (const field of NOT_RENDER_INPUTS.filter((field) => field !== "maxConcurrentRenders")) expect(told).toContain(flagName(field as FlagField));
  });
});

describe("list_compositions", () => {
  it("lists a folder's compositions as compose info lists a folder without index.html", async () => {
    const result = await call("list_compositions", { path: "scenes" });
    const cli = await runCli(["info", "scenes", "--json"], { cwd: project.dir, env: cache.env });
    expect(cli.code).toBe(0);
    expect(result.structuredContent).toEqual(JSON.parse(cli.stdout));
  });

  it("lists a folder that has an index.html too, one folder down included", async () => {
    const result = await call("list_compositions", {});
    expect(result.structuredContent).toMatchObject({ kind: "folder", folder: "." });
    const files = (result.structuredContent as { compositions: Array<{ file: string }> }).compositions.map((composition) => composition.file);
    expect(files).toEqual(["broken.html", "index.html", "long/index.html", "scenes/intro.html"]);
  });
});

describe("lint", () => {
  it("reports a broken composition's errors as compose lint --json does", async () => {
    const result = await call("lint", { path: "broken.html" });
    expect(result.isError).toBeFalsy();
    const report = lintOutputSchema.parse(result.structuredContent);
    expect(report.errors).toBeGreaterThan(0);
    expect(report.findings.map((finding) => finding.code)).toContain("root-missing-attribute");
    const cli = await runCli(["lint", "broken.html", "--json"], { cwd: project.dir, env: cache.env });
    expect(JSON.parse(text(result))).toEqual(JSON.parse(cli.stdout));
  });

  it("refuses a path that names no composition with the CLI's line", async () => {
    const result = await call("lint", { path: "nowhere" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(await cliError(["lint", "nowhere"]));
    expect(text(result)).not.toContain(project.dir);
  });
});

describe("snapshot", () => {
  it("gives the contact sheet as a PNG image, and its moments", async () => {
    const result = await call("snapshot", { at: "0,0.4", output: "sheet.png" });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const facts = snapshotOutputSchema.parse(result.structuredContent);
    expect(facts).toEqual({
      output: project.path("sheet.png"),
      moments: [
        { time: 0, frame: 0 },
        { time: 0.4, frame: 12 },
      ],
    });
    const image = result.content.find((block) => block.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    const png = PNG.sync.read(Buffer.from((image as { data: string }).data, "base64"));
    // Two cells of 320x180 and their labels, as compose snapshot lays them out.
    expect([png.width, png.height]).toEqual([8 + 2 * (320 + 8), 8 + 180 + 28 + 8]);
  });

  it("refuses what compose snapshot refuses, in its words", async () => {
    const result = await call("snapshot", { output: "sheet.jpg" });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(await cliError(["snapshot", "--output", "sheet.jpg"]));
  });
});

describe("render", () => {
  it("renders, sending progress notifications, and gives the finished event's facts", async () => {
    const progress: Progress[] = [];
    const result = await call("render", { output: "renders/out.mp4", fps: 30 }, { onprogress: (step) => progress.push(step) });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const finished = renderFinishedEventSchema.parse(result.structuredContent);
    expect(finished).toMatchObject({ output: project.path("renders/out.mp4"), format: "mp4", width: 320, height: 180, frames: 15 });
    const video = videoStream(await ffprobe(finished.output));
    expect([video.codec_name, video.width, video.height]).toEqual(["h264", 320, 180]);
    expect(progress.length).toBeGreaterThan(1);
    const steps = progress.map((step) => step.progress);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(new Set(steps).size).toBe(steps.length);
    expect(progress.at(-1)).toMatchObject({ progress: 15, total: 15 });
  });

  it("refuses a bad option with the CLI's line, naming the flag", async () => {
    const result = await call("render", { fps: 25 });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(await cliError(["render", "--fps", "25"]));
  });

  it("refuses an input it does not have, naming the nearest", async () => {
    const result = await call("render", { fsp: 30 });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('fsp is not an input of render; did you mean "fps"?');
  });

  it("stops a cancelled render, leaving no output and no staging, and goes on serving", async () => {
    const controller = new AbortController();
    let during: string[] = [];
    const cancelled = call(
      "render",
      { path: "long", output: "cancelled/long.mp4", workers: 1 },
      {
        signal: controller.signal,
        onprogress: () => {
          if (controller.signal.aborted) return;
          void readdir(project.path("cancelled")).then((names) => {
            during = names;
            controller.abort();
          });
        },
      },
    );
    await expect(cancelled).rejects.toThrow(/abort/i);
    // The render was under way: its staging was there.
    expect(during.some((name) => name.includes(".partial-"))).toBe(true);
    // Stopped: its browsers and encoder gone (the server alone is left of the run), its staging removed.
    await until(() => taggedProcesses(tag).every((process) => process.pid === transport.pid));
    await until(async () => (await readdir(project.path("cancelled"))).length === 0);
    expect(existsSync(project.path("cancelled/long.mp4"))).toBe(false);
    const after = await call("lint", {});
    expect(after.isError).toBeFalsy();
  });
});
