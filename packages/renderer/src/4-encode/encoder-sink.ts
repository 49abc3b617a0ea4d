import type { FrameSink } from "../3-capture/frame-sink.js";
import { frameImageFormat } from "../common/frame-image.js";
import type { EncodeSettings, EncodeTarget } from "../2-plan/render-plan.js";
import { encodeArgs } from "./encoder-args.js";
import { FrameEncoder } from "../common/ffmpeg-process.js";
import { matroskaFrameStream } from "./matroska-frames.js";

/**
 * Streams `frames` frames into an ffmpeg process that writes the target. A repeat sends nothing:
 * the next image's timestamp makes ffmpeg show the previous one for as long.
 */
export function encoderSink(settings: EncodeSettings, target: EncodeTarget, frames: number): FrameSink {
  const encoder = new FrameEncoder(encodeArgs(settings, target, frames));
  const captured = settings.capturedSize ?? settings;
  const stream = matroskaFrameStream(frameImageFormat(settings.format), settings.fps, captured.width, captured.height);
  let next = 0;
  let last: Buffer | undefined;
  const send = (index: number, image: Buffer) => {
    const bytes = stream.frame(index, image);
    return encoder.write(index === 0 ? [stream.header, ...bytes] : bytes);
  };
  return {
    async take(frame) {
      if (frame.kind === "image") {
        last = frame.data;
        return send(next++, frame.data);
      }
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
