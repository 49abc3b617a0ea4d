/**
 * The tools of `compose mcp`: the commands an agent needs, each run by the code its command runs,
 * with inputs derived from the command's flags (./tool-inputs.ts) and the JSON it prints as the
 * result, under the output schema core declares for it.
 */
import { Command } from "commander";
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  folderInfoSchema,
  infoOutputSchema,
  jsonSchema,
  lintOutputSchema,
  renderFinishedEventSchema,
  snapshotOutputSchema,
  type NetworkMode,
  type RenderEvent,
} from "@compose/core";
import type { CallToolResult, ContentBlock, Tool } from "@modelcontextprotocol/sdk/types.js";
import { registerInfo } from "../commands/info.js";
import { registerLint } from "../commands/lint.js";
import { registerRender } from "../commands/render.js";
import { registerSnapshot } from "../commands/snapshot.js";
import { describePath, type InfoFlags } from "../info/describe-path.js";
import { folderListing } from "../info/folder-listing.js";
import { lintPath } from "../project/lint-entry.js";
import { prepareRender, singleRenderRequest } from "../render/prepare-render.js";
import type { RenderFlags } from "../render/render-flags.js";
import { takeSnapshot, type SnapshotFlags } from "../snapshot/take-snapshot.js";
import { UsageError } from "../usage-error.js";
import { commandArguments, toolInputs, type ToolInputs } from "./tool-inputs.js";

/** What a call may use besides its arguments: the request's cancellation, and where its progress goes. */
export interface CallContext {
  signal: AbortSignal;
  /** `done` of `total` steps; the caller sends it only when the client asked and `done` grew. */
  progress(done: number, total: number, message: string): void;
}

export interface ComposeTool {
  definition: Tool;
  call(args: Record<string, unknown> | undefined, context: CallContext): Promise<CallToolResult>;
}

/** The command `register` adds, with its flags as --help lists them. */
function commandOf(register: (program: Command) => void): Command {
  const program = new Command();
  register(program);
  return program.commands[0]!;
}

/** Why a tool leaves out a flag of its command. */
const JSON_ALREADY = "a tool's result is the command's JSON";
const ONE_RENDER = "a call renders once: a dataset is one call a row (compose render --batch runs one in a process)";
const ON_THE_TERMINAL = "container mode reports on the terminal it runs in: run compose render --docker there";

/** The JSON a command prints, as the result's text and as its structured content. */
function jsonResult(value: object, more: ContentBlock[] = []): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }, ...more], structuredContent: value as Record<string, unknown> };
}

/** The warnings a render or snapshot gave, one line each as the CLI prints them; none: no block. */
function warningBlocks(warnings: string[]): ContentBlock[] {
  return warnings.length === 0 ? [] : [{ type: "text", text: warnings.join("\n") }];
}

function collectWarnings(warnings: string[]): (event: RenderEvent) => void {
  return (event) => {
    if (event.type === "warning") warnings.push(`warning: [${event.code}] ${event.message}`);
  };
}

function outputSchema(schema: Parameters<typeof jsonSchema>[0]): Tool["outputSchema"] {
  return { type: "object", ...jsonSchema(schema, "output") } as Tool["outputSchema"];
}

/** A tool that runs `command`'s code: its inputs from the command's flags, less `omitted`. */
function commandTool(
  name: string,
  command: Command,
  omitted: Record<string, string>,
  output: Tool["outputSchema"],
  run: (path: string, flags: Record<string, string | string[] | boolean>, context: CallContext) => Promise<CallToolResult>,
): ComposeTool {
  const inputs: ToolInputs = toolInputs(name, command, omitted);
  return {
    definition: {
      name,
      description: inputs.leftOut === "" ? command.description() : `${command.description()} Not offered here: ${inputs.leftOut}.`,
      inputSchema: inputs.schema,
      outputSchema: output,
    },
    call: async (args, context) => {
      const { path, flags } = commandArguments(inputs, args);
      return run(path, flags, context);
    },
  };
}

/** What the studio lists: a tool of its own, where compose info lists a folder only when it has no index.html. */
const listCompositionsCommand = new Command("list_compositions")
  .description(
    "The compositions of a folder, as the studio and compose info list them: each HTML file in it or one folder down that holds a composition, with its id, size and the duration its source gives.",
  )
  .argument("[path]", "a folder", ".");

const listCompositions = commandTool("list_compositions", listCompositionsCommand, {}, outputSchema(folderInfoSchema), async (path) => {
  const found = await stat(resolve(path)).catch(() => undefined);
  if (found === undefined) throw new UsageError(`${path} does not exist; give a folder`);
  if (!found.isDirectory()) throw new UsageError(`${path} is not a folder; give a folder (the info tool describes one composition)`);
  return jsonResult(await folderListing(resolve(path), path));
});

const info = commandTool("info", commandOf(registerInfo), { json: JSON_ALREADY }, outputSchema(infoOutputSchema), async (path, flags) => {
  const { report, pageError } = await describePath(path, flags as InfoFlags);
  if (pageError === undefined) return jsonResult(report);
  // The facts the source gave still come, after the line the CLI prints on stderr.
  const failure = `the page could not be loaded, so the facts only it knows are missing: ${pageError}`;
  return {
    content: [
      { type: "text", text: failure },
      { type: "text", text: JSON.stringify(report, null, 2) },
    ],
    isError: true,
  };
});

const lint = commandTool("lint", commandOf(registerLint), { json: JSON_ALREADY }, outputSchema(lintOutputSchema), async (path, flags) =>
  jsonResult(await lintPath(path, flags.network as NetworkMode)),
);

const snapshot = commandTool(
  "snapshot",
  commandOf(registerSnapshot),
  { json: JSON_ALREADY },
  outputSchema(snapshotOutputSchema),
  async (path, flags, context) => {
    const warnings: string[] = [];
    const snapshotFlags = flags as SnapshotFlags;
    const taken = await takeSnapshot(path, snapshotFlags, { onEvent: collectWarnings(warnings), signal: context.signal });
    const sheet: ContentBlock[] =
      snapshotFlags.framesDir === undefined ? [{ type: "image", mimeType: "image/png", data: (await readFile(taken.output)).toString("base64") }] : [];
    return jsonResult(taken, [...sheet, ...warningBlocks(warnings)]);
  },
);

const render = commandTool(
  "render",
  commandOf(registerRender),
  {
    json: JSON_ALREADY,
    quiet: "progress goes to the client as progress notifications",
    batch: ONE_RENDER,
    batchConcurrency: ONE_RENDER,
    failFast: ONE_RENDER,
    sharedFrames: ONE_RENDER,
    resume: ONE_RENDER,
    docker: ON_THE_TERMINAL,
    image: ON_THE_TERMINAL,
  },
  outputSchema(renderFinishedEventSchema),
  async (path, flags, context) => {
    const renderFlags = flags as RenderFlags;
    const request = singleRenderRequest(await prepareRender(path, renderFlags), renderFlags.output);
    const { render } = await import("@compose/renderer");
    const warnings: string[] = [];
    const warn = collectWarnings(warnings);
    const finished = await render(request, {
      signal: context.signal,
      onEvent: (event) => {
        warn(event);
        if (event.type === "started")
          context.progress(
            0,
            event.totalFrames,
            `rendering ${event.composition}: ${event.totalFrames} frames, ${event.width}x${event.height} at ${event.fps} fps`,
          );
        if (event.type === "progress") context.progress(event.frame, event.totalFrames, `${event.stage}: ${event.frame} of ${event.totalFrames} frames`);
      },
    });
    return jsonResult(finished, warningBlocks(warnings));
  },
);

/** The tools, in the order tools/list gives them. */
export const TOOLS: readonly ComposeTool[] = [listCompositions, info, lint, snapshot, render];
