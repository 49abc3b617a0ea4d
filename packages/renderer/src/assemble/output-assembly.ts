import { join } from "node:path";
import type { FrameRange } from "../common/frame-ranges.js";
import type { EncodeSettings } from "../encode/encoder-args.js";
import { encoderSink, type FrameSink } from "../encode/encoder-sink.js";
import { joinVideo } from "./join-video.js";

export interface AssemblyPlan {
  settings: EncodeSettings;
  /** One per worker, contiguous. */
  ranges: FrameRange[];
  /** Where the output goes before it is committed: a file, or a directory for png-sequence. */
  stagedPath: string;
  /** Private scratch space for chunks and the silent video. */
  workDir: string;
  /** The mixed audio to carry, if the composition has any (png-sequence writes it beside the frames itself). */
  audioFile: string | undefined;
}

/**
 * From captured frames to the output: one encoder per worker range, then, after capture, the
 * chunks joined without re-encoding and the audio muxed in without re-encoding.
 */
export class OutputAssembly {
  readonly sinks: FrameSink[];
  private readonly chunks: string[] | undefined;
  private readonly videoFile: string;

  constructor(private readonly plan: AssemblyPlan) {
    const { settings, ranges, stagedPath, workDir, audioFile } = plan;
    if (settings.format === "png-sequence") {
      this.videoFile = stagedPath;
      this.sinks = ranges.map((range) =>
        encoderSink(settings, { kind: "sequence", directory: stagedPath, firstFrame: range.start }, range.end - range.start),
      );
      return;
    }
    this.videoFile = audioFile ? join(workDir, `video.${settings.format}`) : stagedPath;
    if (ranges.length === 1) {
      this.sinks = [encoderSink(settings, { kind: audioFile ? "chunk" : "file", path: this.videoFile }, ranges[0]!.end - ranges[0]!.start)];
      return;
    }
    // Each worker encodes its own chunk; every chunk starts with a keyframe of its own encoder.
    this.chunks = ranges.map((_, i) => join(workDir, `chunk-${i}.${settings.format}`));
    this.sinks = this.chunks.map((path, i) => encoderSink(settings, { kind: "chunk", path }, ranges[i]!.end - ranges[i]!.start));
  }

  /** Whether anything is left to do after capture. */
  get hasSteps(): boolean {
    return this.chunks !== undefined || (this.plan.audioFile !== undefined && this.plan.settings.format !== "png-sequence");
  }

  kill(): void {
    for (const sink of this.sinks) sink.kill();
  }

  async assemble(signal?: AbortSignal): Promise<void> {
    const { settings, audioFile, stagedPath, workDir } = this.plan;
    if (settings.format === "png-sequence") return;
    await joinVideo(this.chunks ?? [this.videoFile], settings.format, audioFile, stagedPath, workDir, signal);
  }
}
