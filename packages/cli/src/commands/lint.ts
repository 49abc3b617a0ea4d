import type { Command } from "commander";

export function registerLint(program: Command): void {
  program
    .command("lint")
    .description("Check a composition's variable declarations, timing and sub-compositions.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--json", "print the findings as JSON")
    .action(() => {
      process.stdout.write("lint: not implemented yet\n");
    });
}
