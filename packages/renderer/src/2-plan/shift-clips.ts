import type { AudioClip } from "../media/audio-clip.js";

/** Clips in the time of a slice that begins `offset` seconds in: what began earlier is cut, what ended earlier is dropped. */
export function shiftClips(clips: readonly AudioClip[], offset: number): AudioClip[] {
  if (offset === 0) return [...clips];
  return clips.flatMap((clip) => {
    const cut = Math.max(0, offset - clip.start);
    const duration = clip.duration - cut;
    if (duration <= 0) return [];
    return [{ ...clip, start: Math.max(0, clip.start - offset), duration, mediaStart: clip.mediaStart + cut * clip.playbackRate }];
  });
}
