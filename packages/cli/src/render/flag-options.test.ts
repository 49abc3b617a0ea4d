/**
 * Every declared flag reaches each place derived from the declarations: the commands its scopes
 * name, the container's command line, and for render options the options read from the flags,
 * the schema and the OpenAPI request body.
 */
import { Command } from "commander";
import { renderOptionsSchema, RENDER_OPTIONS, type FlagScope } from "@compose/core";
import { openApiDocument } from "@compose/producer";
import { describe, expect, it } from "vitest";
import { registerInfo } from "../commands/info.js";
import { registerRender } from "../commands/render.js";
import { registerSnapshot } from "../commands/snapshot.js";
import { registerServe } from "../commands/serve.js";
import { registerWorker } from "../commands/worker.js";
import { passedFlags } from "../docker/run-command.js";
import { FLAGS, type FlagField } from "./cli-flags.js";
import { flagName } from "./flag-options.js";
import { renderOptionsFromFlags, type RenderFlags } from "./render-flags.js";

/** Per flag: what a user types (as --name=value, the form the container is given), and for render options the value it gives. */
const SAMPLES: Record<FlagField, { argv: string[]; value?: unknown }> = {
  output: { argv: ["--output=out.webm"] },
  frame: { argv: ["--frame=3"] },
  time: { argv: ["--time=0.5"] },
  frames: { argv: ["--frames=1-2"] },
  format: { argv: ["--format=webm"], value: "webm" },
  fps: { argv: ["--fps=60"], value: 60 },
  quality: { argv: ["--quality=high"], value: "high" },
  scale: { argv: ["--scale=0.5"], value: 0.5 },
  // The loop count is a gif's alone.
  gifLoop: { argv: ["--format=gif", "--gif-loop=-1"], value: -1 },
  crf: { argv: ["--crf=20"], value: 20 },
  videoBitrate: { argv: ["--video-bitrate=5M"], value: "5M" },
  workers: { argv: ["--workers=3"], value: 3 },
  gpu: { argv: ["--gpu"], value: true },
  browserGpu: { argv: ["--no-browser-gpu"], value: false },
  hdr: { argv: ["--hdr"], value: true },
  sdr: { argv: ["--sdr"], value: true },
  docker: { argv: ["--docker"], value: true },
  variables: { argv: ['--variables={"title":"Hi"}'], value: { title: "Hi" } },
  image: { argv: ["--image=compose-render:0123456789abcdef"] },
  batch: { argv: ["--batch=rows.csv"] },
  batchConcurrency: { argv: ["--batch-concurrency=2"] },
  failFast: { argv: ["--fail-fast"] },
  resume: { argv: ["--resume"] },
  sharedFrames: { argv: ["--no-shared-frames"] },
  json: { argv: ["--json"] },
  strictVariables: { argv: ["--strict-variables"], value: true },
  allowMissingAssets: { argv: ["--allow-missing-assets"], value: true },
  replaceOutput: { argv: ["--replace-output"], value: true },
  network: { argv: ["--network=none"], value: "none" },
  allowHosts: { argv: ["--allow-host=cdn.example.com", "--allow-host=*.example.org"], value: ["cdn.example.com", "*.example.org"] },
  variablesFile: { argv: ["--variables-file=values.json"] },
  quiet: { argv: ["--quiet"] },
  maxConcurrentRenders: { argv: ["--max-concurrent-renders=3"] },
  maxFrames: { argv: ["--max-frames=900"] },
  maxWidth: { argv: ["--max-width=1920"] },
  maxHeight: { argv: ["--max-height=1080"] },
  maxMemory: { argv: ["--max-memory=1G"] },
  acceptRequestHosts: { argv: ["--accept-request-hosts"] },
};

const scopesOf = (field: FlagField): readonly FlagScope[] => FLAGS[field].scopes;
const COMMANDS: Record<string, FlagScope> = { render: "render", serve: "serve-worker", worker: "serve-worker", info: "info", snapshot: "snapshot" };

/** The CLI's commands, their actions replaced by one that keeps the flags commander parsed. */
function cli() {
  const program = new Command("compose").exitOverride();
  registerRender(program);
  registerServe(program);
  registerWorker(program);
  registerInfo(program);
  registerSnapshot(program);
  const command = (name: string) => program.commands.find((candidate) => candidate.name() === name)!;
  return {
    /** Whether the command has the field's declared flag (serve has its own --max-concurrent-renders). */
    hasDeclared: (name: string, field: FlagField) =>
      command(name).options.some((option) => option.long === flagName(field) && option.description.startsWith(FLAGS[field].help)),
    help: (name: string) => command(name).helpInformation({ error: false }).replace(/\s+/g, " "),
    async parseRender(argv: string[]): Promise<RenderFlags> {
      let parsed: RenderFlags | undefined;
      command("render").action((_path: string, flags: RenderFlags) => {
        parsed = flags;
      });
      await program.parseAsync(["render", ".", ...argv], { from: "user" });
      return parsed!;
    },
  };
}

const requestProperties = (openApiDocument() as { components: { schemas: { RenderRequest: { properties: object } } } }).components.schemas.RenderRequest
  .properties;
const renderOptionFields = Object.keys(RENDER_OPTIONS) as FlagField[];

describe("declared flags", () => {
  it("each have a sample here", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(FLAGS).sort());
  });

  it.each(Object.keys(FLAGS) as FlagField[])("%s is a flag of exactly the commands its scopes name", (field) => {
    for (const [name, scope] of Object.entries(COMMANDS)) {
      expect(cli().hasDeclared(name, field), `compose ${name}`).toBe(scopesOf(field).includes(scope));
    }
  });

  it.each((Object.keys(FLAGS) as FlagField[]).filter((field) => scopesOf(field).includes("render")))(
    "%s is passed into the container as typed exactly when its scopes say so",
    async (field) => {
      const flags = await cli().parseRender(SAMPLES[field].argv);
      expect(passedFlags(flags)).toEqual(scopesOf(field).includes("container") ? SAMPLES[field].argv : []);
    },
  );

  it.each(renderOptionFields)("%s is read from its flag into the render options, the schema and the OpenAPI request", async (field) => {
    const options = await renderOptionsFromFlags(await cli().parseRender(SAMPLES[field].argv));
    expect(options[field as keyof typeof options]).toEqual(SAMPLES[field].value);
    expect(Object.keys(renderOptionsSchema.shape)).toContain(field);
    expect(Object.keys(requestProperties)).toContain(field);
  });

  it.each([
    ["render", "--fps <fps> frames per second: 24, 30 or 60 (default: 30)"],
    ["render", "--gpu hardware video encoding when available (default: off)"],
    ["render", "--max-frames <n> frames one render may capture (default: 108000)"],
    ["render", "(also public addresses), all (default: all)"],
    ["serve", "(also public addresses), all (default: public)"],
    ["worker", "(also public addresses), all (default: public)"],
    ["info", "(also public addresses), all (default: all)"],
    ["snapshot", "(also public addresses), all (default: all)"],
    ["snapshot", "--max-frames <n> frames one render may capture (default: 108000)"],
  ])("compose %s --help shows %s", (name, text) => {
    expect(cli().help(name)).toContain(text);
  });
});
