import { Command } from "commander";
import { readFileSync } from "node:fs";
import { registerLint } from "./commands/lint.js";

const { version } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };

const program = new Command("compose")
  .description("Render HTML video compositions to video files.")
  .version(version, "-v, --version")
  // Subcommands copy these settings when they are created, so they come first.
  .exitOverride((err) => {
    // Usage errors exit 2; --help and --version exit 0.
    process.exit(err.exitCode === 0 ? 0 : 2);
  });

registerLint(program);

await program.parseAsync(process.argv);
