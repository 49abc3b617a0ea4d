import { Command } from "commander";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { formatOfOutputPath, outputExtension, OUTPUT_FORMATS, QUALITY_NAMES, type RenderOptions } from "@compose/core";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import { selectFrames, type FrameSelection } from "../render/frame-selection.js";
import { flagName, renderOptionsFromFlags, renderSettingsFromEnvironment, type RenderFlags } from "../render/render-flags.js";
import { createRenderReporter } from "../render/render-reporter.js";
import { addSafetyOptions, limitsFromFlags } from "../render/safety-flags.js";
import { UsageError } from "../usage-error.js";

/** Exit code of a process ended by Ctrl-C, as shells report it. */
const EXIT_INTERRUPTED = 130;

/**
 * --format, else what the output path asks for (its extension, or a directory for
 * png-sequence); one frame (--frame, --time) is always a PNG image.
 */
function chooseFormat(flags: RenderFlags): string | undefined {
  const still = flags.frame !== undefined || flags.time !== undefined;
  if (still) {
    if (flags.format !== undefined && flags.format !== "png-sequence") {
      throw new UsageError(`--${flags.frame !== undefined ? "frame" : "time"} writes one PNG image; leave out --format ${flags.format}`);
    }
    return "png-sequence";
  }
  if (flags.format !== undefined || flags.output === undefined) return flags.format;
  const isDirectory = isExistingDirectory(flags.output);
  const choice = formatOfOutputPath(flags.output, isDirectory);
  if (!choice.ok) throw new UsageError(`--output ${flags.output} ${choice.problem}`);
  return choice.format;
}

/** Whether a path names an existing directory; a path that cannot exist (under a file) does not. */
function isExistingDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function defaultOutput(name: string, options: RenderOptions, selection: FrameSelection): string {
  if (selection.still) return `renders/${name}${selection.suffix}.png`;
  return `renders/${name}${selection.suffix}${outputExtension(options.format)}`;
}

export function registerRender(program: Command): void {
  const command = program
    .command("render")
    .description("Render a composition to a video file or a PNG sequence.")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("-o, --output <path>", "output file, or a directory for png-sequence (default: renders/<name>.<format>; renders/<name>-frame-<n>.png with --frame)")
    .option("-f, --format <format>", `output format: ${OUTPUT_FORMATS.join(", ")} (default: from the output's extension, a directory for png-sequence; else mp4)`)
    .option("--fps <fps>", "frames per second: 24, 30 or 60 (default: 30)")
    .option("--quality <preset>", `encoding preset: ${QUALITY_NAMES.join(", ")} (default: standard)`)
    .option("--crf <n>", "constant rate factor 0-51, overriding the preset (not with --video-bitrate; default: the preset's)")
    .option("--video-bitrate <rate>", "target bitrate such as 5M or 800k (not with --crf; default: none, the preset's CRF)")
    .option("--workers <n>", "parallel browser workers, 1-8 or auto (default: auto, half the cores, at most 4)")
    .option("--frame <n>", "render only frame n, as one PNG image")
    .option("--time <seconds>", "render only the frame at this time, as one PNG image")
    .option("--frames <a-b>", "render only frames a to b, both included (a- for a to the end)")
    .option("--max-concurrent-renders <n>", "producer server only (compose serve): how many renders run at once, 1-10; checked here, no effect on one render (default: 2)")
    .option("--gpu", "hardware video encoding when available (default: off)")
    .option("--browser-gpu", "let the browser use the host GPU (default: on in local mode)")
    .option("--no-browser-gpu", "refuse the host GPU for reproducible capture (default in container mode)")
    .option("--hdr", "force HDR output, mp4 only (default: HDR when an HDR source is found)")
    .option("--sdr", "force SDR output (default: off)")
    .option("--docker", "render inside the compose-render container image, for deterministic output (needs Docker; default: off)")
    .option("--quiet", "print only errors and the output path (default: off)")
    .option("--variables <json>", "variable values for the top-level composition, as a JSON object (default: the declared defaults)")
    .option("--variables-file <path>", "a JSON file holding variable values, under --variables")
    .option("--strict-variables", "treat variable warnings as errors (default: off)")
    .option("--allow-missing-assets", "warn of assets that fail to load (images, fonts, styles, scripts, media) instead of failing (default: off)");
  addSafetyOptions(command, "all").action(async (pathArg: string, flags: RenderFlags) => {
      const options = await renderOptionsFromFlags({ ...flags, format: chooseFormat(flags) });
      const selection = selectFrames(flags, options.fps);
      const settings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags) };
      const entry = resolveCompositionEntry(pathArg);
      const output = resolve(flags.output ?? defaultOutput(entry.name, options, selection));
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
            frames: selection.frames,
            still: selection.still,
            ...settings,
            optionName: flagName,
          },
          { onEvent: report, signal: controller.signal },
        );
      } catch (error) {
        if (!(error instanceof RenderError)) throw error;
        if (process.env.COMPOSE_DEBUG) console.error(error.cause ?? error);
        process.stderr.write(`error: ${error.message}\n`);
        process.exitCode = error.code === "cancelled" ? EXIT_INTERRUPTED : 1;
      } finally {
        process.off("SIGINT", interrupt);
        process.off("SIGTERM", interrupt);
      }
    });
}
