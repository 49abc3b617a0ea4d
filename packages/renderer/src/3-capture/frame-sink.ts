import type { FrameResult } from "../common/frame-result.js";

/** Where one worker's captured frames go, in order: the encode stage implements it. */
export interface FrameSink {
  /** The next frame: an image, or the previous image again. */
  take(frame: FrameResult): Promise<void>;
  finish(): Promise<void>;
  kill(): void;
}
