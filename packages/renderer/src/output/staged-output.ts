import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { isFolderOutput, type OutputFormat } from "@compose/core";
import { isSequenceFrameName, SEQUENCE_AUDIO_FILE, sequenceFrameName } from "./output-names.js";
import { removeOrphansMatching } from "./owned-temp.js";

/**
 * Where a render writes before it succeeds. Nothing appears at the output path until commit(),
 * so a failed or cancelled render never leaves a half-written file behind.
 */
export interface StagedOutput {
  /** The file or directory to write into now. */
  path: string;
  /** What commit() renames to the output: `path`, or for a still the frame file inside it. */
  result: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** What follows the output's name in its staging directory's: `.<name>.partial-<pid>-XXXXXX`. */
export const STAGING_SUFFIX = ".partial-";

/**
 * This machine's mark in staging names: outputs may be shared storage, and whether a process
 * still runs can be told only for processes of this machine.
 */
export const HOST_MARK = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);

/** `.<name>.partial-<pid>-<host mark>XXXXXX`, whatever the name: the staging of any render of this machine. */
const STAGING_NAME = new RegExp(`^\\..+\\.partial-(\\d+)-${HOST_MARK}[A-Za-z0-9]{6}$`);

/**
 * Removes the staging that renders of this machine's processes that no longer exist (killed) left
 * in `dir`, whatever output they were for: a server's outputs are never named twice.
 */
export function removeOrphanedStaging(dir: string): Promise<void> {
  return removeOrphansMatching(dir, STAGING_NAME);
}

async function stagingDirectory(output: string): Promise<string> {
  await mkdir(dirname(output), { recursive: true });
  // Beside the output, so the final rename stays on one file system; what a killed render left there goes.
  await removeOrphanedStaging(dirname(output));
  return mkdtemp(join(dirname(output), `.${basename(output)}${STAGING_SUFFIX}${process.pid}-${HOST_MARK}`));
}

export async function stageFile(output: string): Promise<StagedOutput> {
  const dir = await stagingDirectory(output);
  const path = join(dir, basename(output));
  return {
    path,
    result: path,
    async commit() {
      await rename(path, output);
      await rm(dir, { recursive: true, force: true });
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A directory output (png-sequence): an existing directory keeps its other files, ours are replaced. */
export async function stageDirectory(output: string): Promise<StagedOutput> {
  const dir = await stagingDirectory(output);
  return {
    path: dir,
    result: dir,
    async commit() {
      await mkdir(output, { recursive: true });
      const stale = (await readdir(output)).filter((name) => isSequenceFrameName(name) || name === SEQUENCE_AUDIO_FILE);
      await Promise.all(stale.map((name) => rm(join(output, name), { force: true })));
      for (const name of await readdir(dir)) await rename(join(dir, name), join(output, name));
      await rm(dir, { recursive: true, force: true });
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * One frame as a PNG file: the frame is written as a one-frame sequence into a directory beside
 * the output, and `frameFile` (its name there) becomes the output on commit.
 */
export async function stageStill(output: string, frameFile: string): Promise<StagedOutput> {
  const dir = await stagingDirectory(output);
  return {
    path: dir,
    result: join(dir, frameFile),
    async commit() {
      await rename(join(dir, frameFile), output);
      await rm(dir, { recursive: true, force: true });
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The staging for a render's output: one PNG (a still), a png-sequence's directory, or a file.
 * Once committed, discard() leaves it alone: whatever ends the render may discard it.
 */
export async function stageOutput(output: string, format: OutputFormat, still: boolean): Promise<StagedOutput> {
  const staged = still ? await stageStill(output, sequenceFrameName(0)) : isFolderOutput(format) ? await stageDirectory(output) : await stageFile(output);
  let committed = false;
  return {
    ...staged,
    async commit() {
      await staged.commit();
      committed = true;
    },
    discard: async () => {
      if (!committed) await staged.discard();
    },
  };
}
