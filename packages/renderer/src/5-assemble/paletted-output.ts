import { join } from "node:path";
import type { PaletteEncoding } from "@compose/core";
import { runFfmpeg } from "../common/ffmpeg-process.js";
import type { PaletteOutput } from "../2-plan/render-plan.js";
import { writeConcatList } from "./concat-list.js";
import { paletteArgs, paletteUseArgs } from "./palette-args.js";

/**
 * Makes a paletted output (GIF) of the workers' lossless parts, in two passes over them: the
 * palette from every frame, then every frame mapped to it. Two ffmpeg runs rather than one graph
 * that splits the frames: such a graph holds every decoded frame in memory until the palette is
 * made at the end. `scratch` holds the list and the palette.
 */
export async function makePalettedOutput(
  parts: readonly string[],
  encoding: PaletteEncoding,
  output: PaletteOutput,
  file: string,
  scratch: string,
  signal?: AbortSignal,
): Promise<void> {
  const listFile = await writeConcatList(parts, scratch);
  const palette = join(scratch, "palette.png");
  await runFfmpeg(paletteArgs(listFile, encoding, palette), signal);
  await runFfmpeg(paletteUseArgs(listFile, palette, encoding, output, file), signal);
}
