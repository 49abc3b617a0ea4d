import type { Command } from "commander";
import { extname, resolve } from "node:path";
import { FOLDER_FORMAT, type SnapshotOutput } from "@compose/core";
import type { RenderEvent } from "@compose/renderer";
import { resolveCompositionEntry } from "../project/resolve-composition-entry.js";
import { addDeclaredFlags, type FlagsOf } from "../render/flag-options.js";
import { optionFlag, renderOptionsFromFlags, renderSettingsFromEnvironment } from "../render/render-flags.js";
import { limitsFromFlags } from "../render/safety-flags.js";
import { DEFAULT_MOMENT_COUNT, momentsFromFlags, type MomentFlags } from "../snapshot/moment-flags.js";
import { formatSnapshotText } from "../snapshot/snapshot-text.js";
import { renderFailureExit, untilInterrupted } from "../render/interruptible.js";
import { UsageError } from "../usage-error.js";


type SnapshotFlags = FlagsOf<"snapshot"> & MomentFlags & { output?: string; framesDir?: string; json?: boolean };

/** The contact sheet's file, or the frames' directory, from --output and --frames-dir. */
function snapshotOutput(flags: SnapshotFlags, name: string): { sheet: string } | { framesDir: string } {
  if (flags.output !== undefined && flags.framesDir !== undefined) throw new UsageError("--output and --frames-dir cannot be combined: a snapshot is one contact sheet, or the frames as files");
  if (flags.framesDir !== undefined) {
    if (flags.framesDir.trim() === "") throw new UsageError("--frames-dir names no directory");
    return { framesDir: resolve(flags.framesDir) };
  }
  const sheet = flags.output ?? `renders/${name}-snapshot.png`;
  if (extname(sheet).toLowerCase() !== ".png") throw new UsageError(`--output must name a .png file, the contact sheet (got ${JSON.stringify(sheet)}); --frames-dir writes the frames as files`);
  return { sheet: resolve(sheet) };
}

export function registerSnapshot(program: Command): void {
  const command = program
    .command("snapshot")
    .description("Capture moments of a composition as one PNG contact sheet, each frame labelled with its time and number, as render captures them (one page load, one capture a moment).")
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--at <seconds>", "the moments, as times in seconds separated by commas: 0,1.5,3 (each taken at its nearest frame)")
    .option("--count <n>", `n moments spread evenly from the first frame to the last (default: ${DEFAULT_MOMENT_COUNT}, without --at)`)
    .option("-o, --output <file>", "the contact sheet, a PNG file (default: renders/<name>-snapshot.png)")
    .option("--frames-dir <dir>", "write the frames instead as PNG files named by frame number (frame_000045.png), each the file render --frame writes")
    .option("--json", "print {output, moments: [{time, frame}]} as one JSON object");
  // Without --network a snapshot may load anything, as a render may.
  addDeclaredFlags(command, "snapshot", { network: "all" }).action(async (pathArg: string, flags: SnapshotFlags) => {
    const moments = momentsFromFlags(flags);
    const options = await renderOptionsFromFlags({ ...flags, format: FOLDER_FORMAT });
    const settings = { ...renderSettingsFromEnvironment(process.env), limits: limitsFromFlags(flags) };
    const entry = await resolveCompositionEntry(pathArg);
    const output = snapshotOutput(flags, entry.name);
    // Loaded here, not at the top: the browser driver would slow every other command's start.
    const { snapshot, RenderError } = await import("@compose/renderer");

    const warn = (event: RenderEvent) => {
      if (event.type === "warning") process.stderr.write(`warning: [${event.code}] ${event.message}\n`);
    };
    try {
      const taken: SnapshotOutput = await untilInterrupted((signal) =>
        snapshot({ composition: entry.file, options, moments, output, ...settings, optionName: optionFlag }, { onEvent: warn, signal }),
      );
      process.stdout.write(flags.json ? `${JSON.stringify(taken)}\n` : formatSnapshotText(taken));
    } catch (error) {
      if (!(error instanceof RenderError)) throw error;
      process.exitCode = renderFailureExit(error);
    }
  });
}
