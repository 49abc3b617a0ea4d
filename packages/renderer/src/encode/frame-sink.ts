import { encodeArgs, type EncodeSettings, type EncodeTarget } from "./encoder-args.js";
import { FrameEncoder } from "./ffmpeg-process.js";

/** Where one worker's captured frames go, in order. */
export interface FrameSink {
  write(image: Buffer): Promise<void>;
  finish(): Promise<void>;
  kill(): void;
}

/** Streams frames into an ffmpeg process that writes the target. */
export function encoderSink(settings: EncodeSettings, target: EncodeTarget): FrameSink {
  const encoder = new FrameEncoder(encodeArgs(settings, target));
  return {
    write: (image) => encoder.write(image),
    finish: () => encoder.finish(),
    kill: () => encoder.kill(),
  };
}
