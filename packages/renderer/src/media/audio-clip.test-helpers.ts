import type { AudioClip } from "./audio-clip.js";

/** A stereo clip of tone.wav from 0.5 s for 2 s, with the fields a test names changed. */
export const audioClip = (over: Partial<AudioClip> = {}): AudioClip => ({
  key: "0",
  input: { location: "tone.wav" },
  start: 0.5,
  duration: 2,
  mediaStart: 0,
  volume: 1,
  playbackRate: 1,
  channels: 2,
  ...over,
});
