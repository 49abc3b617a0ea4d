import { encodeArgs, frameImageFormat, type EncodeSettings, type EncodeTarget } from "./encoder-args.js";
import { FrameEncoder } from "../common/ffmpeg-process.js";
import { matroskaFrameStream } from "./matroska-frames.js";

/** Where one worker's captured frames go, in order. */
export interface FrameSink {
  /** The next frame's image. */
  write(image: Buffer): Promise<void>;
  /** The next frame is the previous one again: nothing is sent, ffmpeg repeats the decoded image. */
  repeat(): void;
  finish(): Promise<void>;
  kill(): void;
}

/** Streams `frames` frames into an ffmpeg process that writes the target. */
export function encoderSink(settings: EncodeSettings, target: EncodeTarget, frames: number): FrameSink {
  const encoder = new FrameEncoder(encodeArgs(settings, target, frames));
  const stream = matroskaFrameStream(frameImageFormat(settings.format), settings.fps, settings.width, settings.height);
  let next = 0;
  let last: Buffer | undefined;
  const send = (index: number, image: Buffer) => {
    const bytes = stream.frame(index, image);
    return encoder.write(index === 0 ? [stream.header, ...bytes] : bytes);
  };
  return {
    write(image) {
      last = image;
      return send(next++, image);
    },
    repeat() {
      if (!last) throw new Error("the first frame of a stream cannot repeat a previous one");
      next++;
    },
    async finish() {
      // ffmpeg's fps filter shows each image until the next timestamp, so the stream ends with a
      // timestamp one frame past the last; the frame count keeps that one out of the output.
      if (last) await send(next, last);
      await encoder.finish();
    },
    kill: () => encoder.kill(),
  };
}
