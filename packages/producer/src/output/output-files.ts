import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { contentTypeOfFile, outputExtension, type OutputFormat } from "@compose/core";

/**
 * Where a request's output goes: `<outputs>/<requestId>.<format>`, or the directory
 * `<outputs>/<requestId>/` for png-sequence. The id is a random UUID, so names never collide
 * and reveal nothing about the composition.
 */
export function outputPath(outputsDir: string, requestId: string, format: OutputFormat): string {
  return join(outputsDir, requestId + outputExtension(format));
}

export function contentTypeOf(path: string): string {
  return contentTypeOfFile(path) ?? "application/octet-stream";
}

export interface SequenceFile {
  name: string;
  size: number;
}

/** The files of a png-sequence output (frames, and audio.aac when there is audio), by name. */
export async function listSequence(directory: string): Promise<SequenceFile[]> {
  // The directory is this request's own, so everything in it is the render's output.
  const names = (await readdir(directory)).sort();
  return Promise.all(names.map(async (name) => ({ name, size: (await stat(join(directory, name))).size })));
}
