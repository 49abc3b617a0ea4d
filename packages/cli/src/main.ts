import { Command } from "commander";
import { readFileSync } from "node:fs";
import { registerBenchmark } from "./commands/benchmark.js";
import { registerDocker } from "./commands/docker.js";
import { registerDoctor } from "./commands/doctor.js";
import { registerFonts } from "./commands/fonts.js";
import { registerInfo } from "./commands/info.js";
import { registerInit } from "./commands/init.js";
import { registerLint } from "./commands/lint.js";
import { registerPreview } from "./commands/preview.js";
import { registerRender } from "./commands/render.js";
import { registerServe } from "./commands/serve.js";
import { registerSnapshot } from "./commands/snapshot.js";
import { registerWorker } from "./commands/worker.js";
import { registerMcp } from "./commands/mcp.js";
import { unexpectedErrorLine } from "./unexpected-error.js";
import { UsageError } from "./usage-error.js";
import { wantsJsonEvents, writeUsageFailure } from "./render/json-events.js";
import { stopWhenStdoutReaderGoes } from "./render/interruptible.js";

stopWhenStdoutReaderGoes();

/** A program that asked for JSON lines reads every refusal as a failed event on stdout too. */
const json = wantsJsonEvents(process.argv);

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

const program = new Command("compose")
  .description("Render HTML video compositions to video files.")
  .version(version, "-v, --version")
  // Subcommands copy these settings when they are created, so they come first.
  .exitOverride((err) => {
    // Usage errors exit 2; --help and --version exit 0.
    if (err.exitCode !== 0 && json) writeUsageFailure(process.stdout, err.message.replace(/^error: /, ""));
    process.exit(err.exitCode === 0 ? 0 : 2);
  });

registerInit(program);
registerDoctor(program);
registerLint(program);
registerInfo(program);
registerFonts(program);
registerPreview(program);
registerRender(program);
registerSnapshot(program);
registerBenchmark(program);
registerServe(program);
registerWorker(program);
registerDocker(program);
registerMcp(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof UsageError) {
    if (json) writeUsageFailure(process.stdout, error.message, error.details);
    process.stderr.write(`error: ${error.message}\n${error.details.map((detail) => `  ${detail}\n`).join("")}`);
    process.exit(2);
  }
  process.stderr.write(`error: ${unexpectedErrorLine(error)}\n`);
  process.exit(1);
}
