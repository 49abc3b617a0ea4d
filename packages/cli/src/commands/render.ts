import { Command, Option } from "commander";
import { resolve } from "node:path";
import { outputExtension, OUTPUT_FORMATS, QUALITY_NAMES } from "@compose/core";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import { renderOptionsFromFlags, renderSettingsFromEnvironment, type RenderFlags } from "../render/render-flags.js";
import { createRenderReporter } from "../render/render-reporter.js";
import { addSafetyOptions, limitsFromFlags } from "../render/safety-flags.js";

/** Exit code of a process ended by Ctrl-C, as shells report it. */
const EXIT_INTERRUPTED = 130;

export function registerRender(program: Command): void {
  const command = program
    .command("render")
    .description("Render a composition to a video file or a PNG sequence.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("-o, --output <path>", "output file; a directory for png-sequence (default: renders/<name>.<format>)")
    .addOption(new Option("-f, --format <format>", `output format: ${OUTPUT_FORMATS.join(", ")}`).default(undefined, "mp4"))
    .addOption(new Option("--fps <fps>", "frames per second: 24, 30 or 60").default(undefined, "30"))
    .addOption(new Option("--quality <preset>", `encoding preset: ${QUALITY_NAMES.join(", ")}`).default(undefined, "standard"))
    .option("--crf <n>", "constant rate factor 0-51, overriding the preset (not with --video-bitrate)")
    .option("--video-bitrate <rate>", "target bitrate such as 5M or 800k (not with --crf)")
    .addOption(new Option("--workers <n>", "parallel browser workers, 1-8 or auto").default(undefined, "auto"))
    .option("--max-concurrent-renders <n>", "simultaneous renders in the producer server, 1-10")
    .option("--gpu", "hardware video encoding when available")
    .option("--browser-gpu", "let the browser use the host GPU (default in local mode)")
    .option("--no-browser-gpu", "refuse the host GPU for reproducible capture")
    .option("--hdr", "force HDR output (mp4 only)")
    .option("--sdr", "force SDR output")
    .option("--docker", "render inside the compose-render container image, for deterministic output (needs Docker)")
    .option("--quiet", "print only errors and the output path")
    .option("--variables <json>", "variable values for the top-level composition, as a JSON object")
    .option("--variables-file <path>", "a JSON file holding variable values")
    .option("--strict-variables", "treat variable warnings as errors");
  addSafetyOptions(command, "all").action(async (pathArg: string, flags: RenderFlags) => {
      const options = await renderOptionsFromFlags(flags);
      const settings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags) };
      const entry = resolveCompositionEntry(pathArg);
      const output = resolve(flags.output ?? `renders/${entry.name}${outputExtension(options.format)}`);
      if (options.docker) {
        // The same render, by the CLI inside the compose-render image; this process starts no browser.
        const { renderInContainer } = await import("../docker/docker-render.js");
        process.exitCode = await renderInContainer({ flags, compositionFile: entry.file, output });
        return;
      }
      // Loaded here, not at the top: the browser driver would slow every other command's start.
      const { render, RenderError } = await import("@compose/renderer");

      const controller = new AbortController();
      const interrupt = () => controller.abort();
      process.once("SIGINT", interrupt);
      process.once("SIGTERM", interrupt);
      const report = createRenderReporter({
        quiet: flags.quiet ?? false,
        interactive: Boolean(process.stdout.isTTY),
        out: process.stdout,
        err: process.stderr,
      });
      try {
        await render(
          {
            composition: entry.file,
            output,
            options,
            ...settings,
          },
          { onEvent: report, signal: controller.signal },
        );
      } catch (error) {
        if (!(error instanceof RenderError)) throw error;
        process.stderr.write(`error: ${error.message}\n`);
        process.exitCode = error.code === "cancelled" ? EXIT_INTERRUPTED : 1;
      } finally {
        process.off("SIGINT", interrupt);
        process.off("SIGTERM", interrupt);
      }
    });
}
