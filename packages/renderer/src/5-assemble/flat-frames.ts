import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { isFolderOutput, type OutputFormat } from "@compose/core";
import type { CompositionInfo } from "@compose/runtime";
import { ffmpegPath } from "../common/ffmpeg-process.js";
import { SEQUENCE_FRAME_PATTERN } from "../output/output-names.js";
import type { RenderEvent } from "@compose/core";

/** Encoders may dither a flat area by a step or two. */
const FLAT_SPREAD = 2;

/** ffmpeg printing every decoded frame's signalstats (per-plane minimum and maximum) on stdout. */
export function signalStatsArgs(output: string, format: OutputFormat): string[] {
  const input = isFolderOutput(format) ? ["-f", "image2", "-i", join(output, SEQUENCE_FRAME_PATTERN)] : ["-i", output];
  return ["-v", "error", ...input, "-an", "-vf", "signalstats,metadata=mode=print:file='pipe\\:1'", "-f", "null", "-"];
}

/**
 * Whether every frame of the output is the same flat colour, by ffmpeg's signalstats. Stops at the
 * first frame that is not, which in a normal render is the first one, so the check costs little.
 */
async function everyFrameFlat(output: string, format: OutputFormat, signal: AbortSignal | undefined): Promise<boolean> {
  const child = spawn(ffmpegPath(), signalStatsArgs(output, format), { stdio: ["ignore", "pipe", "ignore"], signal });
  child.on("error", () => undefined);
  const closed = new Promise((resolve) => child.once("close", resolve));
  // The first frame's lowest value per plane: every plane of every frame must stay next to it.
  const colour: Record<string, number> = {};
  let frames = 0;
  let flat = true;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith("frame:")) frames++;
    const match = /^lavfi\.signalstats\.([YUV])(MIN|MAX)=(\d+)/.exec(line);
    if (!match) continue;
    const [, plane, , text] = match;
    const value = Number(text);
    colour[plane!] ??= value;
    if (Math.abs(value - colour[plane!]!) > FLAT_SPREAD) {
      flat = false;
      child.kill("SIGKILL");
      break;
    }
  }
  await closed;
  return flat && frames > 0;
}

/** The likeliest reason for a blank video, from how the composition element was laid out. */
function likelyCause(info: CompositionInfo): string {
  const { box } = info;
  if (box.width === 0 || box.height === 0) {
    return `the composition element is ${box.width}x${box.height} px: its CSS gives it no size (remove it; data-width / data-height size the element)`;
  }
  if (box.hidden) return "the composition element is hidden by display, visibility or opacity";
  return "nothing drew on it: check that the scripts ran and that the libraries they use loaded";
}

/** Ends a render whose every frame is one flat colour with a warning naming the likely cause. */
export async function warnOnFlatFrames(
  output: string,
  format: OutputFormat,
  info: CompositionInfo,
  emit: (event: RenderEvent) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!(await everyFrameFlat(output, format, signal))) return;
  emit({ type: "warning", code: "flat-frames", message: `every frame is the same flat colour: ${likelyCause(info)}` });
}
