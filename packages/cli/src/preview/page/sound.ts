// Media as render prepares them (extracted video frames, natural lengths), and sound while playing.
import type { ComposeApi, CompositionInfo, MediaDescription } from "@compose/runtime";
import { app, frameTime } from "./app-state.js";
import { $, element } from "./dom.js";
import { setStatus } from "./findings.js";

/** While playing, a sound further than this from the frame's time is moved back in step. */
const AUDIO_DRIFT_S = 0.1;

/**
 * Hands the composition page the plans render hands its pages: the natural length of media
 * without data-duration, and each video's frames extracted by ffmpeg at this fps, which the page
 * shows instead of playing the video. Resolves to the page's description, updated.
 */
export async function prepareFrameMedia(api: ComposeApi, info: CompositionInfo): Promise<CompositionInfo> {
  const media = api.describeMedia();
  if (media.length === 0) return info;
  setStatus("preparing media…");
  const response = await fetch("/__compose/media", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fps: app.fps, media }),
  });
  const answer = (await response.json()) as { plans: Parameters<ComposeApi["prepareMedia"]>[0]; error?: string; code?: string };
  if (!response.ok) throw new Error(answer.code ? `${answer.code}: ${answer.error}` : answer.error);
  return api.prepareMedia(answer.plans);
}

/** The sounds render mixes, played by elements of this page (the composition's own stay silent, as in a render). */
const sounds = new Map<string, HTMLAudioElement>();
/** Media keys the timeline muted: silent here only, render still mixes them. */
const muted = new Set<string>();

export function isMuted(key: string): boolean {
  return muted.has(key);
}

export function setMuted(key: string, mute: boolean): void {
  if (mute) muted.add(key);
  else muted.delete(key);
}

/** Marks the timeline clip of each sound with whether it is playing now. */
function showPlaying(heard: ReadonlySet<string>): void {
  for (const clip of document.querySelectorAll<HTMLElement>(".clip[data-media-key]")) clip.dataset.playing = String(heard.has(clip.dataset.mediaKey!));
}

export function setMedia(media: MediaDescription[]): void {
  if (JSON.stringify(media) === JSON.stringify(app.media)) return;
  app.media = media;
  for (const audio of sounds.values()) {
    audio.pause();
    audio.remove();
  }
  sounds.clear();
}

/**
 * The volume a sound plays at: the level render mixes it at, its data-volume times the element's
 * own volume now (a script's fade, which render mixes as an envelope; 0 once a script muted it).
 * The browser plays a mono source at that level in both channels, as render's mix does.
 */
export function soundVolume(media: MediaDescription, gains: Record<string, number>): number {
  return Math.min(1, Math.max(0, media.volume * (gains[media.key] ?? 1)));
}

/** Plays, at the frame's time, every audible clip that covers it, at its soundVolume; pauses the rest. */
export function syncSound(frame: number, playing: boolean): void {
  const t = frameTime(frame);
  const heard = new Set<string>();
  const gains = playing ? (app.api?.mediaGains() ?? {}) : {};
  for (const media of playing ? app.media : []) {
    if (!media.audible || media.start === undefined || !media.src || media.volume === 0 || muted.has(media.key)) continue;
    const local = t - media.start;
    if (local < 0 || local >= (media.duration ?? Infinity)) continue;
    heard.add(media.key);
    let audio = sounds.get(media.key);
    if (!audio) {
      audio = element("audio", { src: media.src, preload: "auto", "data-key": media.key });
      $("sounds").append(audio);
      sounds.set(media.key, audio);
    }
    audio.volume = soundVolume(media, gains);
    audio.playbackRate = media.playbackRate;
    const expected = media.mediaStart + local * media.playbackRate;
    if (audio.paused || Math.abs(audio.currentTime - expected) > AUDIO_DRIFT_S) audio.currentTime = expected;
    if (audio.paused) audio.play().catch(() => undefined);
  }
  for (const [key, audio] of sounds) if (!heard.has(key) && !audio.paused) audio.pause();
  showPlaying(heard);
}
