// Sound in step with the frames: each audible clip render mixes, played by an <audio> element of
// the player (the composition's own media stay silent, as in a render) at the level render mixes it.
import type { MediaDescription } from "@compose/runtime";

/** While playing, a sound further than this from the frame's time is moved back in step. */
const AUDIO_DRIFT_S = 0.1;

/**
 * A sound that plays is the clock: frames wait for it when it is behind them by this much at most
 * (seconds), and it is moved to them only past it. A busy machine starts a sound late and may set
 * it back; past this, waiting would freeze the picture.
 */
const LAG_S = 0.25;

/** A sound's rate follows the frames' pace when the pace has moved this much (a fraction) since. */
const PACE_STEP = 0.05;

/**
 * How far a sound's time is carried on by the wall clock since the browser last moved it: browsers
 * move an element's time in steps (of about 100 ms in firefox-esr), and a sound that stopped moving
 * (a busy machine, a stall) is not heard further than this past where it stopped.
 */
const CARRY_S = 0.12;

/** A sound set to a time has started playing once its time moved on this far (seconds) by itself. */
const STARTED_S = 0.01;

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
  /** Each element's time when it was last seen to move by itself, and when (performance.now()); no `at` while it has not moved since it was set. */
  readonly #moved = new WeakMap<HTMLAudioElement, { time: number; at?: number }>();
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
      const drift = (audio.currentTime - expected) / media.playbackRate;
      const behindLimit = this.#moved.get(audio)?.at === undefined ? AUDIO_DRIFT_S : LAG_S;
      if (audio.paused || drift > AUDIO_DRIFT_S || -drift > behindLimit) {
        audio.currentTime = expected;
        this.#moved.set(audio, { time: audio.currentTime });
      }
      if (audio.paused) audio.play().catch(() => undefined);
    }
    for (const [key, audio] of this.#elements) if (!heard.has(key) && !audio.paused) audio.pause();
    this.#heard = heard;
  }

  /**
   * How far the sound heard at `now` (performance.now()) is behind composition time `time`, for the
   * frames to wait: 0 when it is not behind, or more than LAG_S behind (it is moved instead).
   */
  lag(time: number, now: number): number {
    const heard = this.#heardTime(now);
    const lag = heard === undefined ? 0 : time - heard;
    return lag > 0 && lag <= LAG_S ? lag : 0;
  }

  /**
   * The composition time the sounds are heard at: the first playing sound's time, carried on by the
   * wall clock since the browser last moved it. Undefined while no sound plays, or none has moved
   * by itself since it was set: a sound still starting, or one a browser does not play (firefox-esr
   * without an audio device), is no clock to keep to.
   */
  #heardTime(now: number): number | undefined {
    for (const media of this.#media) {
      const audio = this.#elements.get(media.key);
      const moved = audio && this.#moved.get(audio);
      if (!audio || !moved || !this.#heard.has(media.key) || audio.paused || audio.ended) continue;
      const time = audio.currentTime;
      if (moved.at === undefined ? time - moved.time >= STARTED_S : time !== moved.time) this.#moved.set(audio, { time, at: now });
      const seen = this.#moved.get(audio)!;
      if (seen.at === undefined) continue;
      const carried = Math.min(CARRY_S, ((now - seen.at) / 1000) * audio.playbackRate);
      return media.start! + (seen.time + carried - media.mediaStart) / media.playbackRate;
    }
    return undefined;
  }
}
