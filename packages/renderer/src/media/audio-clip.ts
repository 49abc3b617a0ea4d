import type { MediaInput } from "./media-input.js";

/** One audible media element of the composition, as loading found it; the plan cuts clips to its slice and the assemble stage mixes them. */
export interface AudioClip {
  /** The media element's key (MediaDescription.key), which its gain samples are keyed by. */
  key: string;
  input: MediaInput;
  /** Seconds of composition time where the sound begins. */
  start: number;
  /** Seconds of composition time it lasts. */
  duration: number;
  mediaStart: number;
  volume: number;
  playbackRate: number;
  /** Channels of the source's audio stream. */
  channels: number;
}
