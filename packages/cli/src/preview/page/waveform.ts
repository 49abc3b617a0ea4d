// Audio clips drawn as their waveform: the page decodes the source as the browser plays it
// (decodeAudioData) and draws its peaks over the part of the sound the clip plays.
import type { MediaDescription } from "@compose/runtime";
import { app } from "./app-state.js";
import { element } from "./dom.js";
import { columnPeaks, soundPeaks } from "./waveform-peaks.js";

/** Canvas pixels across at most: a clip zoomed wider is drawn stretched. */
const MAX_COLUMNS = 4096;

/** Peaks by source URL and project version: a saved file is decoded again. */
const decoded = new Map<string, Promise<Float32Array | undefined>>();

async function decodePeaks(src: string): Promise<Float32Array | undefined> {
  try {
    const response = await fetch(src);
    if (!response.ok) return undefined;
    // Decoding needs no sound output: a one-sample offline context does it without a user gesture.
    const audio = await new OfflineAudioContext(1, 1, 48_000).decodeAudioData(await response.arrayBuffer());
    return soundPeaks(
      Array.from({ length: audio.numberOfChannels }, (_, channel) => audio.getChannelData(channel)),
      audio.sampleRate,
    );
  } catch {
    // A source the browser cannot decode keeps its plain clip.
    return undefined;
  }
}

function peaksOf(src: string): Promise<Float32Array | undefined> {
  const key = `${app.get().project?.version ?? 0} ${src}`;
  if (!decoded.has(key)) decoded.set(key, decodePeaks(src));
  return decoded.get(key)!;
}

/** A canvas over the clip, `width` CSS pixels wide for `seconds` of the composition, drawn once the sound is decoded. */
export function waveformCanvas(media: MediaDescription, width: number, seconds: number): HTMLCanvasElement {
  const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.round(width)));
  const canvas = element("canvas", { class: "waveform", width: columns, height: 32, "aria-hidden": "true" });
  void peaksOf(media.src).then((peaks) => {
    if (!peaks) return;
    const levels = columnPeaks(peaks, media.mediaStart, seconds * media.playbackRate, columns);
    const context = canvas.getContext("2d");
    if (!context) return;
    context.fillStyle = "rgba(255, 255, 255, 0.55)";
    for (let column = 0; column < columns; column++) {
      const height = Math.round(levels[column]! * canvas.height);
      if (height > 0) context.fillRect(column, (canvas.height - height) / 2, 1, height);
    }
    canvas.dataset.drawn = "true";
  });
  return canvas;
}
