import type { Command } from "commander";
import { statSync } from "node:fs";
import { UsageError } from "../usage-error.js";

/** Makes `dir` the server's working directory, which tools resolve their paths against as the CLI does. */
function enter(dir: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`${dir} does not exist; give the folder the tools' paths are relative to`);
  }
  if (!isDirectory) throw new UsageError(`${dir} is not a folder; give the folder the tools' paths are relative to`);
  process.chdir(dir);
}

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve compose to an agent as a Model Context Protocol server on standard input and output: the tools list_compositions, info, lint, snapshot (the contact sheet as an image) and render (progress notifications, cancellation), their inputs the commands' flags (docs/agents.md).",
    )
    .argument("[dir]", "the folder the tools' paths are relative to", ".")
    .action(async (dir: string) => {
      enter(dir);
      // Loaded here, not at the top: declaring the command (compose --help declares them all) must not load the protocol's SDK.
      const { serveMcp } = await import("../mcp/serve-mcp.js");
      await serveMcp(program.version() ?? "");
    });
}
