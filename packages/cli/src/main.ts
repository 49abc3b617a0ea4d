import { Command } from "commander";
import { CLI_VERSION } from "./package-dir.js";
import { stopWhenStdoutReaderGoes } from "./render/interruptible.js";

stopWhenStdoutReaderGoes();

type Register = (program: Command) => void;

/**
 * Every command, in the order `compose --help` lists them, as the module that declares it. A
 * command's module declares its flags and help, and its action loads what the command does when
 * it runs; a run declares only the commands it can reach (commandsToDeclare), so `compose --version`
 * loads none of them and `compose render --help` only render's flags.
 */
const COMMANDS = new Map<string, () => Promise<Register>>([
  ["init", async () => (await import("./commands/init.js")).registerInit],
  ["doctor", async () => (await import("./commands/doctor.js")).registerDoctor],
  ["lint", async () => (await import("./commands/lint.js")).registerLint],
  ["info", async () => (await import("./commands/info.js")).registerInfo],
  ["fonts", async () => (await import("./commands/fonts.js")).registerFonts],
  ["preview", async () => (await import("./commands/preview.js")).registerPreview],
  ["render", async () => (await import("./commands/render.js")).registerRender],
  ["snapshot", async () => (await import("./commands/snapshot.js")).registerSnapshot],
  ["benchmark", async () => (await import("./commands/benchmark.js")).registerBenchmark],
  ["serve", async () => (await import("./commands/serve.js")).registerServe],
  ["worker", async () => (await import("./commands/worker.js")).registerWorker],
  ["docker", async () => (await import("./commands/docker.js")).registerDocker],
  ["mcp", async () => (await import("./commands/mcp.js")).registerMcp],
]);

/**
 * The commands commander may look at for these arguments: the one they name (`compose render ...`,
 * `compose help render`), none for `--version`, and every one wherever it may list them or suggest
 * one (`compose`, `compose --help`, a command it does not know). Declaring more than a run needs
 * only costs time; declaring less would change what it prints.
 */
function commandsToDeclare(args: readonly string[]): string[] {
  const named = args[0] === "help" ? args[1] : args[0];
  if (named !== undefined && COMMANDS.has(named)) return [named];
  if (args[0] === "-v" || args[0] === "--version") return [];
  return [...COMMANDS.keys()];
}

const args = process.argv.slice(2);

/** A program that asked `compose render` for JSON lines reads every refusal as a failed event on stdout too. */
const writeUsageFailure = args[0] === "render" && args.includes("--json") ? (await import("./render/json-events.js")).writeUsageFailure : undefined;

const program = new Command("compose")
  .description("Render HTML video compositions to video files.")
  .version(CLI_VERSION, "-v, --version")
  // Subcommands copy these settings when they are created, so they come first.
  .exitOverride((err) => {
    // Usage errors exit 2; --help and --version exit 0.
    if (err.exitCode !== 0) writeUsageFailure?.(process.stdout, err.message.replace(/^error: /, ""));
    process.exit(err.exitCode === 0 ? 0 : 2);
  });

const registers = await Promise.all(commandsToDeclare(args).map((name) => COMMANDS.get(name)!()));
for (const register of registers) register(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A UsageError was thrown by code that loaded its module already: this import finds the same class.
  const [{ UsageError }, { unexpectedErrorLine }] = await Promise.all([import("./usage-error.js"), import("./unexpected-error.js")]);
  if (error instanceof UsageError) {
    writeUsageFailure?.(process.stdout, error.message, error.details);
    process.stderr.write(`error: ${error.message}\n${error.details.map((detail) => `  ${detail}\n`).join("")}`);
    process.exit(2);
  }
  process.stderr.write(`error: ${unexpectedErrorLine(error)}\n`);
  process.exit(1);
}
