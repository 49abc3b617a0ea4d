import { basename, dirname } from "node:path";
import { RenderError } from "./render-error.js";

/** What ffmpeg and Node say when a disk is full (ENOSPC) or a file hits the size limit (EFBIG). */
const FULL = /No space left on device|ENOSPC|File too large|EFBIG/;

/** The render's own staging and temporary directories, named after their process. */
const OWN_DIRECTORY = /^(\..*\.partial-|compose-(render|browser)-)\d+-/;

/** The directory a user knows: a path's directory, above the render's own staging or temp directories. */
function userDirectory(path: string): string {
  let dir = dirname(path);
  while (OWN_DIRECTORY.test(basename(dir))) dir = dirname(dir);
  return dir;
}

/**
 * `disk-full`, naming the directory whose disk is full, when `text` (ffmpeg's log, or an error's
 * message) says a write into `path` failed for lack of space; undefined when it says otherwise.
 */
export function fullDiskError(text: string, path: string | undefined): RenderError | undefined {
  const reason = FULL.exec(text)?.[0];
  if (reason === undefined) return undefined;
  const why = /File too large|EFBIG/.test(reason) ? "a file grew over the size allowed there" : "no space is left on its disk";
  const where = path ? ` in ${userDirectory(path)}` : "";
  return new RenderError("disk-full", `cannot write${where}: ${why} (${reason}); free some space or write the output elsewhere`);
}
