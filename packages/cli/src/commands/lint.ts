import { Option, type Command } from "commander";
import { NETWORK_MODES, type NetworkMode } from "@compose/core/options";

export function registerLint(program: Command): void {
  program
    .command("lint")
    .description("Check a composition's variable declarations, timing and sub-compositions.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--json", "print the findings as JSON")
    .addOption(
      new Option(
        "--network <mode>",
        "the network the render will have: with none, every remote URL the project's packages do not answer is reported as refused",
      )
        .choices([...NETWORK_MODES])
        .default("public"),
    )
    .action(async (pathArg: string, options: { json?: boolean; network: NetworkMode }) => {
      const [{ lintPath }, { formatLintJson, formatLintText }] = await Promise.all([import("../project/lint-entry.js"), import("../terminal/lint-report.js")]);
      // Usage errors (a missing path, a binary entry) propagate as UsageError: main prints one line, exit 2.
      const { findings, files, errors } = await lintPath(pathArg, options.network);
      process.stdout.write(options.json ? formatLintJson(findings, files) : formatLintText(findings, files));
      process.exitCode = errors > 0 ? 1 : 0;
    });
}
