import { constants, type Stats } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { PROJECT_FILE_CODE } from "@compose/core";
import { isInside } from "./path-inside.js";


/** Far above any real composition (media belong in separate files), low enough to stay responsive. */
export const MAX_PROJECT_FILE_BYTES = 32 * 1024 * 1024;

/** A local file is read in milliseconds; a file system that stalls for longer is not waited for. */
export const PROJECT_FILE_READ_MS = 10_000;

/*
 * The project-file rule: what the render's file server serves and what the tool itself reads of a
 * project (compositions, sub-compositions, the files lint follows) is a regular file that really
 * lies inside the project directory: no dotfile or dot-directory, no symbolic link that leads out,
 * no FIFO, device, socket or directory. PROJECT_FILE_CODE names a refusal wherever it is reported.
 */
const ALLOWED = "only regular files inside the project are read";

/** A file the project-file rule refuses; `message` names the path and why. */
export class ProjectFileError extends Error {
  override name = "ProjectFileError";
  readonly code = PROJECT_FILE_CODE;
}

export type ProjectFileCheck = { kind: "file"; real: string } | { kind: "missing" } | { kind: "refused"; reason: string };

function kindOf(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Why a file of this kind is refused by the project-file rule (`is a FIFO (named pipe); only
 * regular files …`), or undefined for a regular file.
 */
export function notRegularFile(info: Stats): string | undefined {
  const kind = kindOf(info);
  return kind === undefined ? undefined : `is ${kind}; ${ALLOWED}`;
}

/**
 * Whether `path` (relative to the project directory `root`, in the platform's form) is a project
 * file: its real path when it is, else whether it is missing or why it is refused.
 */
export async function checkProjectFile(root: string, path: string): Promise<ProjectFileCheck> {
  const segments = path.split(/[\\/]/).filter((segment) => segment !== "" && segment !== ".");
  if (isAbsolute(path) || segments.includes("..")) return { kind: "refused", reason: `is outside the project; ${ALLOWED}` };
  if (segments.some((segment) => segment.startsWith("."))) return { kind: "refused", reason: `is a dotfile or inside a dot-directory; ${ALLOWED}` };
  if (path.includes("\0")) return { kind: "refused", reason: `is not a file name; ${ALLOWED}` };
  let real: string;
  let info: Stats;
  try {
    const realRoot = await realpath(root);
    real = await realpath(join(realRoot, ...segments));
    if (!isInside(realRoot, real)) return { kind: "refused", reason: `is a symbolic link that leads out of the project; ${ALLOWED}` };
    info = await stat(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "refused", reason: `cannot be read (${code ?? (error as Error).message})` };
  }
  const refused = notRegularFile(info);
  return refused === undefined ? { kind: "file", real } : { kind: "refused", reason: refused };
}

/** Why `path` is not a project file of `root` (a rule it breaks, or that it does not exist), or undefined when it is. */
export async function projectFileProblem(root: string, path: string): Promise<string | undefined> {
  const checked = await checkProjectFile(root, path);
  if (checked.kind === "file") return undefined;
  return checked.kind === "missing" ? MISSING : checked.reason;
}

/** What projectFileProblem says of a file that does not exist: no rule, only its absence. */
export const MISSING = "does not exist";

/**
 * Reads a project file whole, under the project-file rule, at most MAX_PROJECT_FILE_BYTES and
 * within PROJECT_FILE_READ_MS: undefined when it does not exist, a ProjectFileError when the rule
 * refuses it. `shown` is how messages name it.
 */
export async function readProjectFile(root: string, path: string, options: { shown?: string; signal?: AbortSignal } = {}): Promise<Buffer | undefined> {
  const shown = options.shown ?? path;
  const checked = await checkProjectFile(root, path);
  if (checked.kind === "missing") return undefined;
  if (checked.kind === "refused") throw new ProjectFileError(`${shown} ${checked.reason}`);
  // Non-blocking and not following links: a file swapped for a FIFO or a link since the check
  // neither blocks the open nor leads out; fstat then says what was really opened.
  const handle = await open(checked.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    throw new ProjectFileError(`${shown} cannot be read (${error.code ?? error.message}); ${ALLOWED}`);
  });
  try {
    const info = await handle.stat();
    const refused = notRegularFile(info);
    if (refused !== undefined) throw new ProjectFileError(`${shown} ${refused}`);
    if (info.size > MAX_PROJECT_FILE_BYTES) {
      throw new ProjectFileError(`${shown} is ${Math.round(info.size / 1024 / 1024)} MiB; a project file read as text may be at most ${MAX_PROJECT_FILE_BYTES / 1024 / 1024} MiB`);
    }
    const deadline = AbortSignal.timeout(PROJECT_FILE_READ_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    try {
      return await handle.readFile({ signal });
    } catch (error) {
      if (deadline.aborted) throw new ProjectFileError(`${shown} could not be read within ${PROJECT_FILE_READ_MS / 1000} s`);
      throw error;
    }
  } finally {
    await handle.close();
  }
}
