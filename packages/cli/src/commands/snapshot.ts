import type { Command } from "commander";
import type { RenderEvent } from "@compose/renderer";
import { addDeclaredFlags } from "../render/flag-options.js";
import { renderFailureExit, untilInterrupted } from "../render/interruptible.js";
import { DEFAULT_MOMENT_COUNT } from "../snapshot/moment-flags.js";
import type { SnapshotFlags } from "../snapshot/take-snapshot.js";
import { UsageError } from "../usage-error.js";

export function registerSnapshot(program: Command): void {
  const command = program
    .command("snapshot")
    .description(
      "Capture moments of a composition as one PNG contact sheet, each frame labelled with its time and number, as render captures them (one page load, one capture a moment).",
    )
    .argument("[path]", "composition directory (its index.html) or HTML file", ".")
    .option("--at <seconds>", "the moments, as times in seconds separated by commas: 0,1.5,3 (each taken at its nearest frame)")
    .option("--count <n>", `n moments spread evenly from the first frame to the last (default: ${DEFAULT_MOMENT_COUNT}, without --at)`)
    .option("-o, --output <file>", "the contact sheet, a PNG file (default: renders/<name>-snapshot.png)")
    .option("--frames-dir <dir>", "write the frames instead as PNG files named by frame number (frame_000045.png), each the file render --frame writes")
    .option("--json", "print {output, moments: [{time, frame}]} as one JSON object");
  // Without --network a snapshot may load anything, as a render may.
  addDeclaredFlags(command, "snapshot", { network: "all" }).action(async (pathArg: string, flags: SnapshotFlags & { json?: boolean }) => {
    const [{ takeSnapshot }, { formatSnapshotText }] = await Promise.all([import("../snapshot/take-snapshot.js"), import("../snapshot/snapshot-text.js")]);
    const warn = (event: RenderEvent) => {
      if (event.type === "warning") process.stderr.write(`warning: [${event.code}] ${event.message}\n`);
    };
    try {
      const taken = await untilInterrupted((signal) => takeSnapshot(pathArg, flags, { onEvent: warn, signal }));
      process.stdout.write(flags.json ? `${JSON.stringify(taken)}\n` : formatSnapshotText(taken));
    } catch (error) {
      // A usage error comes before the renderer is loaded, and must not load it.
      if (error instanceof UsageError) throw error;
      const { RenderError } = await import("@compose/renderer");
      if (!(error instanceof RenderError)) throw error;
      process.exitCode = renderFailureExit(error);
    }
  });
}
