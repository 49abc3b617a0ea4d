// Sound in step with the frames: each audible clip render mixes, played by an <audio> element of
// the player (the composition's own media stay silent, as in a render) at the level render mixes it.
import type { MediaDescription } from "@compose/runtime";

/** While playing, a sound further than this from the frame's time is moved back in step. */
const AUDIO_DRIFT_S = 0.1;

/** A sound's rate follows the frames' pace when the pace has moved this much (a fraction) since. */
const PACE_STEP = 0.05;

/**
 * The level a sound plays at: the level render mixes it at, its data-volume times the element's
 * own volume now (a script's fade, which render mixes as an envelope; 0 once a script muted it),
 * times the player's volume. The browser plays a mono source at that level in both channels, as
 * render's mix does.
 */
export function soundVolume(media: MediaDescription, gains: Record<string, number>, volume = 1): number {
  return Math.min(1, Math.max(0, media.volume * (gains[media.key] ?? 1) * volume));
}

/** Plays the composition's sounds from elements in `container`, one per audible clip. */
export class Sounds {
  readonly #container: HTMLElement;
  #media: MediaDescription[] = [];
  readonly #elements = new Map<string, HTMLAudioElement>();
  /** Media keys silenced here only: render still mixes them. */
  readonly #muted = new Set<string>();
  /** Keys of the sounds playing now. */
  #heard = new Set<string>();
  /** The player's volume (0-1), times every sound's own level. */
  volume = 1;
  /** Silences every sound without forgetting the volume. */
  muted = false;
  /** The player's playback rate, times every sound's own. */
  rate = 1;
  /** How fast the frames are shown against their time (FramePace): 1 while they keep up, and the sounds follow it. */
  pace = 1;

  constructor(container: HTMLElement) {
    this.#container = container;
  }

  get media(): readonly MediaDescription[] {
    return this.#media;
  }

  get heard(): ReadonlySet<string> {
    return this.#heard;
  }

  isMuted(key: string): boolean {
    return this.#muted.has(key);
  }

  setMuted(key: string, mute: boolean): void {
    if (mute) this.#muted.add(key);
    else this.#muted.delete(key);
  }

  /** The composition's timed media, after each load; the elements of the last are dropped when they differ. */
  setMedia(media: MediaDescription[]): void {
    if (JSON.stringify(media) === JSON.stringify(this.#media)) return;
    this.#media = media;
    for (const audio of this.#elements.values()) {
      audio.pause();
      audio.remove();
    }
    this.#elements.clear();
  }

  /**
   * Plays, at time `t`, every audible clip that covers it at its soundVolume with `gains` (the
   * page's mediaGains now); pauses the rest, and all of them when not playing.
   */
  sync(t: number, playing: boolean, gains: Record<string, number>): void {
    const heard = new Set<string>();
    for (const media of playing && !this.muted ? this.#media : []) {
      if (!media.audible || media.start === undefined || !media.src || media.volume === 0 || this.#muted.has(media.key)) continue;
      const local = t - media.start;
      if (local < 0 || local >= (media.duration ?? Infinity)) continue;
      heard.add(media.key);
      let audio = this.#elements.get(media.key);
      if (!audio) {
        audio = document.createElement("audio");
        audio.src = media.src;
        audio.preload = "auto";
        audio.dataset.key = media.key;
        this.#container.append(audio);
        this.#elements.set(media.key, audio);
      }
      audio.volume = soundVolume(media, gains, this.volume);
      const playbackRate = media.playbackRate * this.rate * this.pace;
      // A pace that moves a little from frame to frame is not worth a change of the browser's resampling, which can click.
      if (this.pace === 1 || Math.abs(audio.playbackRate - playbackRate) > playbackRate * PACE_STEP) audio.playbackRate = playbackRate;
      const expected = media.mediaStart + local * media.playbackRate;
      if (audio.paused || Math.abs(audio.currentTime - expected) > AUDIO_DRIFT_S) audio.currentTime = expected;
      if (audio.paused) audio.play().catch(() => undefined);
    }
    for (const [key, audio] of this.#elements) if (!heard.has(key) && !audio.paused) audio.pause();
    this.#heard = heard;
  }
}
