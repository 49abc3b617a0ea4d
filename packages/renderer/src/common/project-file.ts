import { constants, type Stats } from "node:fs";
import { open, readlink, realpath, type FileHandle } from "node:fs/promises";
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

/** A project file opened for reading: the caller closes `handle`. */
export interface ProjectFile {
  handle: FileHandle;
  /** What fstat says of the open file. */
  info: Stats;
  /** Where the open file really is. */
  real: string;
  /** As it was asked for, relative to the root: its name's extension is its type. */
  path: string;
}

export type OpenedProjectFile = ({ kind: "file" } & ProjectFile) | { kind: "missing" } | { kind: "refused"; reason: string };

// Non-blocking, so that a FIFO swapped in does not hold the open; not following a last link, so
// that what is opened is the file the real path named.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

function failure(error: unknown): OpenedProjectFile {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
  return { kind: "refused", reason: `cannot be read (${code ?? (error as Error).message}); ${ALLOWED}` };
}

/**
 * Where an open file really is. Linux names a descriptor's path; elsewhere the real path it was
 * opened by stands for it, which a folder swapped for a link between the two can defeat.
 */
async function realPathOf(handle: FileHandle, opened: string): Promise<string> {
  return process.platform === "linux" ? readlink(`/proc/self/fd/${handle.fd}`) : opened;
}

/**
 * Opens `path` (relative to the directory `root`, in the platform's form) under the project-file
 * rule. The rule is judged on the open file (its fstat and the real path of its descriptor),
 * which is then the one read: a name swapped for a link out, or a folder on its way swapped for a
 * link to another, between a check and a read cannot lead the read out. With `within` (a real
 * path), the file must also lie inside it.
 */
export async function openProjectFile(root: string, path: string, options: { within?: string } = {}): Promise<OpenedProjectFile> {
  const segments = path.split(/[\\/]/).filter((segment) => segment !== "" && segment !== ".");
  if (isAbsolute(path) || segments.includes("..")) return { kind: "refused", reason: `is outside the project; ${ALLOWED}` };
  if (segments.some((segment) => segment.startsWith("."))) return { kind: "refused", reason: `is a dotfile or inside a dot-directory; ${ALLOWED}` };
  if (path.includes("\0")) return { kind: "refused", reason: `is not a file name; ${ALLOWED}` };
  let realRoot: string;
  let handle: FileHandle;
  let opened: string;
  try {
    realRoot = await realpath(root);
    // Resolved first so that a link that stays inside is followed; the open file is what is judged.
    opened = await realpath(join(realRoot, ...segments));
    handle = await open(opened, OPEN_FLAGS);
  } catch (error) {
    return failure(error);
  }
  try {
    const [info, real] = await Promise.all([handle.stat(), realPathOf(handle, opened)]);
    const inside = isInside(realRoot, real) && (options.within === undefined || isInside(options.within, real));
    const refused = inside ? notRegularFile(info) : `is a symbolic link that leads out of the project; ${ALLOWED}`;
    if (refused === undefined) return { kind: "file", handle, info, real, path };
    await handle.close();
    return { kind: "refused", reason: refused };
  } catch (error) {
    await handle.close();
    return failure(error);
  }
}

/** Why `path` is not a project file of `root` (a rule it breaks, or that it does not exist), or undefined when it is. */
export async function projectFileProblem(root: string, path: string): Promise<string | undefined> {
  const opened = await openProjectFile(root, path);
  if (opened.kind === "file") {
    await opened.handle.close();
    return undefined;
  }
  return opened.kind === "missing" ? MISSING : opened.reason;
}

/** What projectFileProblem says of a file that does not exist: no rule, only its absence. */
export const MISSING = "does not exist";

/**
 * Reads an open project file whole, at most MAX_PROJECT_FILE_BYTES and within
 * PROJECT_FILE_READ_MS, and closes it. `shown` is how messages name it.
 */
export async function readOpenedFile(file: ProjectFile, shown: string, signal?: AbortSignal): Promise<Buffer> {
  try {
    if (file.info.size > MAX_PROJECT_FILE_BYTES) {
      throw new ProjectFileError(
        `${shown} is ${Math.round(file.info.size / 1024 / 1024)} MiB; a project file read as text may be at most ${MAX_PROJECT_FILE_BYTES / 1024 / 1024} MiB`,
      );
    }
    const deadline = AbortSignal.timeout(PROJECT_FILE_READ_MS);
    try {
      return await file.handle.readFile({ signal: signal ? AbortSignal.any([signal, deadline]) : deadline });
    } catch (error) {
      if (deadline.aborted) throw new ProjectFileError(`${shown} could not be read within ${PROJECT_FILE_READ_MS / 1000} s`);
      throw error;
    }
  } finally {
    await file.handle.close();
  }
}

/**
 * Reads a project file whole, under the project-file rule, at most MAX_PROJECT_FILE_BYTES and
 * within PROJECT_FILE_READ_MS: undefined when it does not exist, a ProjectFileError when the rule
 * refuses it. `shown` is how messages name it; `within` as openProjectFile takes it.
 */
export async function readProjectFile(
  root: string,
  path: string,
  options: { shown?: string; signal?: AbortSignal; within?: string } = {},
): Promise<Buffer | undefined> {
  const shown = options.shown ?? path;
  const opened = await openProjectFile(root, path, { within: options.within });
  if (opened.kind === "missing") return undefined;
  if (opened.kind === "refused") throw new ProjectFileError(`${shown} ${opened.reason}`);
  return readOpenedFile(opened, shown, options.signal);
}
