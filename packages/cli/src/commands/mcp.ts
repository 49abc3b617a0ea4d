import type { Command } from "commander";

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve compose to an agent as a Model Context Protocol server on standard input and output: the tools list_compositions, info, lint, snapshot (the contact sheet as an image) and render (progress notifications, cancellation), their inputs the commands' flags; paths are relative to the folder it runs in (docs/agents.md).",
    )
    .action(async () => {
      // Loaded here, not at the top: the protocol's SDK would slow every other command's start.
      const { serveMcp } = await import("../mcp/serve-mcp.js");
      await serveMcp(program.version() ?? "");
    });
}
