/**
 * docs/agents.md shows every JSON a program reads from compose, each example tagged with what made
 * it (`<!-- example: KIND -->` above its block). Each one parses with the schema core declares for
 * it and has, key for key, the shape of the real output: the commands are run on a small project
 * that holds what the examples name (intro, promo, scenes). The MCP client's configuration starts
 * the server the calls are made to; each documented call succeeds, and the tools table lists each
 * tool's inputs as tools/list gives them. The exit codes table names the CLI's codes.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  benchmarkOutputSchema,
  compositionInfoSchema,
  doctorOutputSchema,
  folderInfoSchema,
  infoOutputSchema,
  lintOutputSchema,
  RENDER_EVENT_TYPES,
  renderEventSchema,
  renderFinishedEventSchema,
  snapshotOutputSchema,
  type RenderEvent,
} from "@compose/core";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_INTERRUPTED } from "../../packages/cli/src/render/interruptible.js";
import { childEnv, CLI_BIN, limited, runCli, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { createCacheDir } from "../support/test-media.js";

const MARKDOWN = readFileSync(join(REPO_ROOT, "docs/agents.md"), "utf8");

interface Example {
  /** What made it: a command's JSON (`lint`, `render-events`, ...), `mcp-client`, or `mcp-call TOOL`. */
  kind: string;
  tool?: string;
  body: string;
}

const EXAMPLES: Example[] = [...MARKDOWN.matchAll(/^<!-- example: (\S+)(?: (\S+))? -->\n```json\n([\s\S]*?)^```$/gm)].map((match) => ({
  kind: match[1]!,
  ...(match[2] === undefined ? {} : { tool: match[2] }),
  body: match[3]!,
}));

function example(kind: string): Example {
  const found = EXAMPLES.find((each) => each.kind === kind);
  if (found === undefined) throw new Error(`docs/agents.md has no example of ${kind}`);
  return found;
}

const jsonOf = (kind: string): unknown => JSON.parse(example(kind).body);
const linesOf = (text: string): unknown[] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

/** Every key of a JSON value by its path (`.checks[].fix`); arrays' items pooled, values left out. */
function keyPaths(value: unknown, at = ""): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((item) => keyPaths(item, `${at}[]`)))].sort();
  if (typeof value !== "object" || value === null) return [];
  return [...new Set(Object.entries(value).flatMap(([key, child]) => [`${at}.${key}`, ...keyPaths(child, `${at}.${key}`)]))].sort();
}

const INTRO = compositionHtml({
  id: "intro",
  duration: 0.5,
  backdrop: "#101828",
  variables: [{ id: "title", type: "string", label: "Title", default: "Hello" }],
  css: "h1 { font-family: sans-serif; color: #ffffff; }",
  body: `<h1 id="title"></h1>`,
  after: `<script>document.getElementById("title").textContent = __compose.getVariables().title;</script>`,
});
const PROMO = compositionHtml({ id: "promo", duration: 1, backdrop: "#101828", body: `<img src="logo.png" alt="">` });
const OUTRO = compositionHtml({ id: "outro", duration: 0.5, backdrop: "#000000" });

/** The commands whose JSON the page shows, as run on the project. */
const RUNS = {
  lint: ["lint", "promo", "--json"],
  info: ["info", "intro", "--json"],
  "info-folder": ["info", "scenes", "--json"],
  snapshot: ["snapshot", "intro", "--at", "0,0.4", "--json"],
  render: ["render", "intro", "--json", "--variables", '{"titel": "Hi"}', "--output", "renders/intro.mp4"],
  "render-failed": ["render", "intro", "--json", "--frame", "99"],
  "batch-events": ["render", "intro", "--batch", "rows.json", "--json"],
  doctor: ["doctor", "--json"],
  benchmark: ["benchmark", "intro", "--json", "--seconds", "0.2", "--workers", "1"],
} as const;

/** An environment where one check of doctor fails, so that its output shows a fix as the example does. */
const DOCTOR_ENV = { COMPOSE_FFPROBE: "/nonexistent/ffprobe" };

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const runs = {} as Record<keyof typeof RUNS, CliResult>;

beforeAll(async () => {
  cache = await createCacheDir();
  project = await createProject(
    { "intro/index.html": INTRO, "promo/index.html": PROMO, "scenes/outro.html": OUTRO, "rows.json": JSON.stringify([{ title: "Ada" }]) },
    { prefix: "compose-agents-doc-" },
  );
  const names = Object.keys(RUNS) as Array<keyof typeof RUNS>;
  const results = await limited(
    2,
    names.map((name) => () => runCli([...RUNS[name]], { cwd: project.dir, env: { ...cache.env, ...(name === "doctor" ? DOCTOR_ENV : {}) } })),
  );
  names.forEach((name, i) => (runs[name] = results[i]!));
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

/** The one JSON object a run printed. */
function printed(name: keyof typeof RUNS): unknown {
  const run = runs[name];
  expect(run.stdout, run.stderr).not.toBe("");
  return JSON.parse(run.stdout);
}

describe("docs/agents.md", () => {
  it("tags every JSON example with what made it", () => {
    const blocks = MARKDOWN.match(/^```json$/gm) ?? [];
    expect(EXAMPLES).toHaveLength(blocks.length);
    const kinds = EXAMPLES.map((each) => (each.tool === undefined ? each.kind : `${each.kind} ${each.tool}`));
    expect(kinds.sort()).toEqual(
      [
        "lint",
        "info",
        "info-folder",
        "snapshot",
        "render-events",
        "batch-events",
        "doctor",
        "benchmark",
        "mcp-client",
        ...["list_compositions", "info", "lint", "snapshot", "render"].map((tool) => `mcp-call ${tool}`),
      ].sort(),
    );
  });

  it("lists the CLI's exit codes", () => {
    const section = MARKDOWN.split(/^## Exit codes$/m)[1]!.split(/^## /m)[0]!;
    const codes = [...section.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual([0, 1, 2, EXIT_INTERRUPTED]);
  });
});

describe.each([
  ["lint", lintOutputSchema],
  ["info", compositionInfoSchema],
  ["info-folder", folderInfoSchema],
  ["snapshot", snapshotOutputSchema],
  ["doctor", doctorOutputSchema],
  ["benchmark", benchmarkOutputSchema],
] as const)("the example of %s", (kind, schema: z.ZodType) => {
  it("is what the schema declares, as the real output is", () => {
    expect(schema.safeParse(jsonOf(kind)).error).toBeUndefined();
    expect(schema.safeParse(printed(kind)).error).toBeUndefined();
  });

  it("has the real output's keys", () => {
    expect(keyPaths(jsonOf(kind))).toEqual(keyPaths(printed(kind)));
  });
});

describe("the render events", () => {
  const documented = () => linesOf(example("render-events").body) as RenderEvent[];
  const real = () => [...linesOf(runs.render.stdout), ...linesOf(runs["render-failed"].stdout)] as RenderEvent[];

  it("show each type of event once, as the schema declares it", () => {
    expect(
      documented()
        .map((event) => event.type)
        .sort(),
    ).toEqual([...RENDER_EVENT_TYPES].sort());
    for (const event of documented()) expect(renderEventSchema.safeParse(event).error).toBeUndefined();
  });

  it.each(RENDER_EVENT_TYPES)("%s has the keys of a real one", (type) => {
    const real_ = real().find((event) => event.type === type);
    expect(real_, `compose render --json printed no ${type} event`).toBeDefined();
    expect(keyPaths(documented().find((event) => event.type === type))).toEqual(keyPaths(real_));
  });
});

describe("the batch's events", () => {
  it("are render events with their row, with the keys of real ones", () => {
    const real = linesOf(runs["batch-events"].stdout) as Array<RenderEvent & { row: number }>;
    for (const { row, ...event } of linesOf(example("batch-events").body) as Array<RenderEvent & { row: number }>) {
      expect(row).toBeGreaterThanOrEqual(1);
      expect(renderEventSchema.safeParse(event).error).toBeUndefined();
      const same = real.find((each) => each.type === event.type);
      expect(same, `compose render --batch --json printed no ${event.type} event`).toBeDefined();
      expect(keyPaths({ ...event, row })).toEqual(keyPaths(same));
    }
  });
});

describe("compose mcp as the page configures it", () => {
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    const config = jsonOf("mcp-client") as { mcpServers: Record<string, { command: string; args: string[] }> };
    const { command, args } = config.mcpServers.compose!;
    expect(command).toBe("compose");
    expect(args).toHaveLength(2);
    expect(args[0]).toBe("mcp");
    // The folder the page names stands for this project.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, "mcp", project.dir],
      env: childEnv(cache.env, randomUUID()) as Record<string, string>,
    });
    client = new Client({ name: "agents-doc", version: "1.0.0" });
    await client.connect(transport);
    tools = (await client.listTools()).tools;
  });

  afterAll(() => client?.close());

  it("has the tools the table lists, each with the inputs it names", () => {
    const section = MARKDOWN.split(/^### Tools$/m)[1]!.split(/^#{2,3} /m)[0]!;
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map(
      (row) => [row[1]!, [...row[2]!.matchAll(/`([A-Za-z]+)`/g)].map((input) => input[1]!).sort()] as const,
    );
    expect(rows.map(([tool]) => tool)).toEqual(tools.map((tool) => tool.name));
    for (const [name, inputs] of rows) expect(inputs, name).toEqual(Object.keys(tools.find((tool) => tool.name === name)!.inputSchema.properties!).sort());
  });

  const RESULTS = {
    list_compositions: folderInfoSchema,
    info: infoOutputSchema,
    lint: lintOutputSchema,
    snapshot: snapshotOutputSchema,
    render: renderFinishedEventSchema,
  } as const;

  it.each(Object.keys(RESULTS) as Array<keyof typeof RESULTS>)("takes the call of %s the page shows, and gives the command's JSON", async (tool) => {
    const call = EXAMPLES.find((each) => each.kind === "mcp-call" && each.tool === tool)!;
    const result = (await client.callTool({ name: tool, arguments: JSON.parse(call.body) as Record<string, unknown> })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(RESULTS[tool].safeParse(result.structuredContent).error).toBeUndefined();
  });
});
