import { plural } from "@compose/core";
import cliProgress from "cli-progress";
import { isAbsolute, relative } from "node:path";
import type { RenderEvent } from "@compose/renderer";

export interface ReporterOptions {
  quiet: boolean;
  /** A live bar on a terminal; plain periodic lines in logs and pipes. */
  interactive: boolean;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

/** Paths under the current directory print as the user would type them. */
export function displayPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  return fromHere && !fromHere.startsWith("..") && !isAbsolute(fromHere) ? fromHere : path;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** How the start line says where the duration came from. */
const DURATION_SOURCES: Record<Extract<RenderEvent, { type: "started" }>["durationSource"], string> = {
  "data-duration": "from data-duration",
  clips: "to the end of the last clip",
  timelines: "from the longest timeline in window.__timelines",
};

function seconds(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** Prints render events the way a person at a terminal or a CI log wants to read them. */
export function createRenderReporter(options: ReporterOptions): (event: RenderEvent) => void {
  const { out, err } = options;
  let bar: cliProgress.SingleBar | undefined;
  let nextPlainPercent = 10;

  const stopBar = () => {
    bar?.stop();
    bar = undefined;
  };

  return (event) => {
    switch (event.type) {
      case "warning":
        stopBar();
        err.write(`warning: [${event.code}] ${event.message}\n`);
        return;
      case "failed":
        stopBar();
        return;
      case "started":
        if (options.quiet) return;
        out.write(
          `Rendering ${event.composition} at ${event.fps} fps, ${event.quality} quality: ` +
            `${plural(event.totalFrames, "frame")}, ${event.width}x${event.height}, ${plural(event.workers, "worker")}; ` +
            `${seconds(event.durationSeconds)} s ${DURATION_SOURCES[event.durationSource]}\n`,
        );
        if (options.interactive) {
          bar = new cliProgress.SingleBar(
            {
              format: "  {bar} {value}/{total} frames | {rate} fps | {eta_formatted} left",
              stream: out,
              hideCursor: true,
              clearOnComplete: true,
              etaBuffer: 30,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(event.totalFrames, 0, { rate: "0.0" });
        }
        return;
      case "progress":
        if (options.quiet || event.stage !== "capture") return;
        if (bar) {
          bar.update(event.frame, { rate: event.framesPerSecond.toFixed(1) });
        } else if (event.percent >= nextPlainPercent || event.frame === event.totalFrames) {
          out.write(`  ${event.frame}/${event.totalFrames} frames (${Math.floor(event.percent)}%), ${event.framesPerSecond.toFixed(1)} fps\n`);
          nextPlainPercent = Math.floor(event.percent / 10) * 10 + 10;
        }
        return;
      case "finished":
        stopBar();
        if (options.quiet) {
          out.write(`${displayPath(event.output)}\n`);
          return;
        }
        out.write(`Captured ${plural(event.frames, "frame")} in ${(event.captureMs / 1000).toFixed(1)} s (total ${(event.elapsedMs / 1000).toFixed(1)} s)\n`);
        if (event.stats.replayedFrames > 0) {
          out.write(
            `Replayed ${plural(event.stats.replayedFrames, "frame")} of history in ${(event.stats.replayMs / 1000).toFixed(1)} s: the composition builds its state frame by frame\n`,
          );
        }
        out.write(
          `Output: ${displayPath(event.output)} (${event.durationSeconds.toFixed(2)} s, ${event.width}x${event.height}, ${formatBytes(event.sizeBytes)})\n`,
        );
        return;
    }
  };
}
