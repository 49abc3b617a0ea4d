import { mkdtemp, readdir, rm } from "node:fs/promises";
import { basename, dirname, extname, join, sep } from "node:path";
import { HOST_MARK, STAGING_SUFFIX } from "./staged-output.js";
import { formatOfExtension, isFolderOutput, outputExtension, type OutputFormat } from "@compose/core";
import { RenderError } from "../common/render-error.js";
import { statOrUndefined } from "../common/stat-or-undefined.js";

function invalid(output: string, problem: string): RenderError {
  return new RenderError("invalid-output", `the output ${output} ${problem}`);
}

/** The longest file name Linux file systems take (NAME_MAX), in bytes. */
const NAME_MAX = 255;
/** What a staging name adds to the output's: `.` before, `.partial-<pid, up to 7 digits>-<host mark>XXXXXX` after. */
const STAGING_EXTRA = ".".length + STAGING_SUFFIX.length + 7 + "-".length + HOST_MARK.length + "XXXXXX".length;

/** A name too long for the file system, or for the staging name beside it, is refused before anything is written. */
function checkNameLengths(output: string): void {
  const tooLong = output.split(sep).find((name) => Buffer.byteLength(name) > NAME_MAX);
  if (tooLong !== undefined) {
    throw invalid(output, `has a name of ${Buffer.byteLength(tooLong)} bytes; a file system takes names of at most ${NAME_MAX} bytes`);
  }
  const length = Buffer.byteLength(basename(output));
  if (length + STAGING_EXTRA > NAME_MAX) {
    throw invalid(
      output,
      `has a name of ${length} bytes; an output's name may be at most ${NAME_MAX - STAGING_EXTRA} bytes (the file system's limit of ${NAME_MAX}, less the ${STAGING_EXTRA} its staging name beside it adds)`,
    );
  }
}

/**
 * Refuses an output path that cannot work, before any browser starts: an existing directory for
 * a file format (or a file for png-sequence), a png-sequence directory that already holds files
 * (unless `replace`), an extension naming another format, a place under a file, or a directory
 * the render may not write in.
 */
export async function checkOutputPath(
  output: string,
  format: OutputFormat,
  still: boolean,
  optionName: (field: string) => string,
  replace = false,
): Promise<void> {
  checkNameLengths(output);
  const named = formatOfExtension(output);
  if (still) {
    if (extname(output).toLowerCase() !== ".png") throw invalid(output, "is one frame, written as a PNG file: name it with .png");
    if ((await statOrUndefined(output))?.isDirectory()) throw invalid(output, "is a directory; one frame is a PNG file: give a file name ending in .png");
  } else if (named && named !== format) {
    throw invalid(
      output,
      `ends in ${extname(output)} but the format is ${format}: use ${optionName("format")} ${named}, or name the output ${output.slice(0, -extname(output).length)}${outputExtension(format) || "/"}`,
    );
  }
  const existing = await statOrUndefined(output);
  if (existing?.isDirectory() && !isFolderOutput(format) && !still) {
    throw invalid(output, `is a directory; a ${format} output is a file: give a file name such as ${join(output, `video${outputExtension(format)}`)}`);
  }
  if (existing && !existing.isDirectory() && isFolderOutput(format) && !still) {
    throw invalid(output, "is a file; png-sequence writes a directory of frames: give a directory");
  }
  if (existing?.isDirectory() && isFolderOutput(format) && !still && !replace) {
    // Files this render did not write are the user's, whatever their names: never replaced unasked.
    const held = await readdir(output);
    if (held.length > 0) {
      const shown = held.slice(0, 3).join(", ") + (held.length > 3 ? `, … (${held.length} entries)` : "");
      throw invalid(
        output,
        `already holds files this render did not write (${shown}): give an empty or new directory, or ${optionName("replaceOutput")} to replace them`,
      );
    }
  }
  // The render writes beside the output first (then renames), so that place must take new entries.
  let place = dirname(output);
  let info = await statOrUndefined(place);
  while (!info && dirname(place) !== place) {
    place = dirname(place);
    info = await statOrUndefined(place);
  }
  if (!info?.isDirectory()) throw invalid(output, `cannot be created: ${place} is not a directory`);
  try {
    await rm(await mkdtemp(join(place, ".compose-write-check-")), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "an error";
    throw invalid(output, `cannot be written: ${place} refuses new files (${code})`);
  }
}
