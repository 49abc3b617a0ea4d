import { copyFile, readdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { OutputFormat } from "@compose/core";
import { audioFileName, isSequenceFrameName, sequenceFrameName } from "../output/output-names.js";
import { outputSize } from "../output/output-size.js";
import { stageDirectory, stageFile } from "../output/staged-output.js";
import { cancelledError, RenderError, throwIfAborted } from "../common/render-error.js";

import { joinVideo } from "./join-video.js";

export interface JoinChunksRequest {
  /**
   * The chunks in frame order, each rendered by render() with `frames` set, `audio: false` and
   * otherwise identical options: files for mp4, mov and webm; directories for png-sequence.
   */
  chunks: string[];
  format: OutputFormat;
  /** The output file, or directory for png-sequence. Nothing appears there unless the join succeeds. */
  output: string;
  /** Audio mixed for the whole composition (mixCompositionAudio), muxed in or, for png-sequence, written beside the frames. */
  audioFile?: string | undefined;
  signal?: AbortSignal;
}

export interface JoinedOutput {
  output: string;
  /** Bytes; for png-sequence, all files together. */
  sizeBytes: number;
}

/**
 * Joins chunk outputs into one output without re-encoding: video chunks with ffmpeg's concat
 * demuxer (`-c copy`, each chunk starts on its own keyframe), then the audio muxed in (`-c copy`);
 * png-sequence chunks by renumbering their frames into one sequence. The output is staged beside
 * its path and renamed into place, as render() does; the chunks themselves are left for the
 * caller to remove (png-sequence frames are moved out of them).
 */
export async function joinChunks(request: JoinChunksRequest): Promise<JoinedOutput> {
  const { chunks, format, output, audioFile, signal } = request;
  if (chunks.length === 0) throw new RenderError("encode-failed", "there are no chunks to join");
  throwIfAborted(signal);
  if (format === "png-sequence") {
    const staged = await stageDirectory(output);
    try {
      let next = 0;
      for (const chunk of chunks) {
        const frames = (await readdir(chunk)).filter(isSequenceFrameName).sort();
        for (const name of frames) await rename(join(chunk, name), join(staged.path, sequenceFrameName(next++)));
        throwIfAborted(signal);
      }
      if (audioFile) await copyFile(audioFile, join(staged.path, audioFileName(format)));
      await staged.commit();
    } catch (error) {
      await staged.discard();
      throw signal?.aborted ? cancelledError() : error;
    }
    return { output, sizeBytes: await outputSize(output) };
  }

  const staged = await stageFile(output);
  try {
    // The staging directory is this join's own: the list and the silent video go there too.
    await joinVideo(chunks, format, audioFile, staged.path, dirname(staged.path), signal);
    throwIfAborted(signal);
    await staged.commit();
  } catch (error) {
    await staged.discard();
    throw signal?.aborted ? cancelledError() : error;
  }
  return { output, sizeBytes: await outputSize(output) };
}
