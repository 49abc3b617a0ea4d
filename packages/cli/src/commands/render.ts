import { Command } from "commander";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { FOLDER_FORMAT, formatOfOutputPath, outputExtension, type RenderOptions } from "@compose/core";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import { addDeclaredFlags } from "../render/flag-options.js";
import { selectFrames, type FrameSelection } from "../render/frame-selection.js";
import { optionFlag, renderOptionsFromFlags, renderSettingsFromEnvironment, type RenderFlags } from "../render/render-flags.js";
import type { RenderEvent } from "@compose/renderer";
import { renderFailureExit, untilInterrupted } from "../render/interruptible.js";
import { writeJsonEvent } from "../render/json-events.js";
import { createRenderReporter } from "../render/render-reporter.js";
import { limitsFromFlags } from "../render/safety-flags.js";
import { UsageError } from "../usage-error.js";


/**
 * --format, else what the output path asks for (its extension, or a directory for
 * png-sequence); one frame (--frame, --time) is always a PNG image.
 */
function chooseFormat(flags: RenderFlags): string | undefined {
  const still = flags.frame !== undefined || flags.time !== undefined;
  if (still) {
    if (flags.format !== undefined && flags.format !== FOLDER_FORMAT) {
      throw new UsageError(`--${flags.frame !== undefined ? "frame" : "time"} writes one PNG image; leave out --format ${flags.format}`);
    }
    return FOLDER_FORMAT;
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
    .argument("[path]", "composition directory (its index.html) or HTML file", ".");
  // Without --network a render may load anything; serve and worker narrow it.
  addDeclaredFlags(command, "render", { network: "all" }).action(async (pathArg: string, flags: RenderFlags) => {
      if (flags.output !== undefined && (flags.output.trim() === "" || flags.output === "-")) {
        // An unset shell variable, or a wish for standard output: neither names a place to write.
        throw new UsageError(`--output ${JSON.stringify(flags.output)} names no file: give a file name, or a directory for png-sequence (a render cannot write to standard output)`);
      }
      if (flags.image !== undefined && !flags.docker) throw new UsageError("--image names the image of --docker: add --docker, or leave out --image");
      const batchOnly = (["batchConcurrency", "failFast", "resume", "sharedFrames"] as const).find((field) => flags[field] !== undefined && flags[field] !== false);
      if (batchOnly !== undefined && flags.batch === undefined) throw new UsageError(`${optionFlag(batchOnly)} goes with --batch FILE; without it there is one render`);
      // A batch's --output is a template: its {ext} names no format, the flag or the default does.
      const formatFlags = flags.batch !== undefined && flags.output?.includes("{ext}") ? { ...flags, output: undefined } : flags;
      const options = await renderOptionsFromFlags({ ...flags, format: chooseFormat(formatFlags) });
      const selection = selectFrames(flags, options.fps);
      const settings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags) };
      const entry = await resolveCompositionEntry(pathArg);
      if (flags.batch !== undefined) {
        const { runBatchCommand } = await import("../batch/batch-command.js");
        process.exitCode = await runBatchCommand({ flags: { ...flags, batch: flags.batch }, entry, options, selection, settings: { ...settings, optionName: optionFlag } });
        return;
      }
      const output = resolve(flags.output ?? defaultOutput(entry.name, options, selection));
      if (options.docker) {
        // The same render, by the CLI inside the compose-render image; this process starts no browser.
        const { renderInContainer } = await import("../docker/docker-render.js");
        process.exitCode = await renderInContainer({ flags, compositionFile: entry.file, output });
        return;
      }
      // Loaded here, not at the top: the browser driver would slow every other command's start.
      const { render, RenderError } = await import("@compose/renderer");

      const report = flags.json
        ? (event: RenderEvent) => writeJsonEvent(process.stdout, event)
        : createRenderReporter({ quiet: flags.quiet ?? false, interactive: Boolean(process.stdout.isTTY), out: process.stdout, err: process.stderr });
      try {
        const request = { composition: entry.file, output, options, frames: selection.frames, still: selection.still, ...settings, optionName: optionFlag };
        await untilInterrupted((signal) => render(request, { onEvent: report, signal }));
      } catch (error) {
        if (!(error instanceof RenderError)) throw error;
        // With --json the failed event said it on stdout; stderr still tells a person watching.
        process.exitCode = renderFailureExit(error);
      }
    });
}
