import type { CompositionInfo, MediaDescription, MediaPlan } from "../api.js";
import { findCompositionRoot, numberAttribute } from "./composition-root.js";
import { eachInstance } from "./sub-compositions.js";
import { readTimedElements, type TimedElement } from "./timed-elements.js";

/** The media the renderer draws and mixes itself: timed <video> and <audio>. */
const MEDIA_SELECTOR = "video[data-start], audio[data-start]";

/** Frames extracted by the renderer for one <video>, shown through its poster. */
interface VideoFrames {
  video: HTMLVideoElement;
  urlPattern: string;
  count: number;
  fps: number;
  shown?: string;
}

const managedVideos = new Map<HTMLVideoElement, VideoFrames>();
/** Videos that show their own source, seeked to their local time (MediaPlan.seekSource). */
const seekedVideos = new Set<HTMLVideoElement>();

function ownMedia(): HTMLMediaElement[] {
  const root = findCompositionRoot();
  return root ? Array.from(root.querySelectorAll<HTMLMediaElement>(MEDIA_SELECTOR)) : [];
}

export function mediaSource(element: HTMLMediaElement): string {
  const src = element.getAttribute("src") ?? element.querySelector("source")?.getAttribute("src") ?? "";
  return src === "" ? "" : new URL(src, document.baseURI).href;
}

function clampedNumber(element: Element, name: string, fallback: number, min: number, max: number): number {
  const value = numberAttribute(element, name);
  return value === undefined ? fallback : Math.min(max, Math.max(min, value));
}

function describeOwn(element: HTMLMediaElement, index: number, timing: TimedElement["timing"]): MediaDescription {
  const video = element instanceof HTMLVideoElement;
  const declaredAudio = element.getAttribute("data-has-audio");
  return {
    key: String(index),
    kind: video ? "video" : "audio",
    id: element.id || undefined,
    src: element.getAttribute("data-compose-src") ?? mediaSource(element),
    start: timing?.start,
    duration: numberAttribute(element, "data-duration"),
    declaredDuration: numberAttribute(element, "data-duration"),
    mediaStart: Math.max(0, numberAttribute(element, "data-media-start") ?? 0),
    volume: clampedNumber(element, "data-volume", 1, 0, 1),
    playbackRate: clampedNumber(element, "data-playback-rate", 1, 0.1, 5),
    // A video is silent unless it says it has audio; audio is audible unless muted.
    audible: !element.muted && !element.hasAttribute("muted") && (video ? declaredAudio === "true" : declaredAudio !== "false"),
  };
}

/**
 * Every timed <video> and <audio> of this composition and, at their place in time, of its
 * sub-compositions: starts are in this composition's time, and an instance's media end where
 * the instance's host ends. Keys name an element across frames (`2/0`: instance 2, element 0).
 */
export function describeMedia(): MediaDescription[] {
  const root = findCompositionRoot();
  if (!root) return [];
  const { elements } = readTimedElements(root);
  const timingOf = new Map(elements.map((entry) => [entry.element, entry.timing]));
  const own = ownMedia().map((element, index) => describeOwn(element, index, timingOf.get(element)));
  const nested = eachInstance((instance, index) => {
    const host = timingOf.get(instance.host);
    return instance.api.describeMedia().map((media) => {
      const start = media.start === undefined || host === undefined ? undefined : host.start + media.start;
      const localEnd = media.duration === undefined || media.start === undefined ? undefined : media.start + media.duration;
      const end = [host?.end, localEnd === undefined || host === undefined ? undefined : host.start + localEnd]
        .filter((value): value is number => value !== undefined)
        .reduce<number | undefined>((least, value) => (least === undefined ? value : Math.min(least, value)), undefined);
      return {
        ...media,
        key: `${index}/${media.key}`,
        start,
        duration: start === undefined || end === undefined ? media.duration : Math.max(0, end - start),
      };
    });
  });
  return [...own, ...nested.flat()];
}

/**
 * Applies what the renderer found out: natural durations where data-duration is absent (as if
 * the page had set them), and the extracted frames each video shows instead of playing. Returns
 * this composition's description again, now that every duration is known.
 */
export async function prepareMedia(plans: readonly MediaPlan[], describe: () => CompositionInfo): Promise<CompositionInfo> {
  const own = ownMedia();
  const byInstance = new Map<number, MediaPlan[]>();
  for (const plan of plans) {
    const [head, ...rest] = plan.key.split("/");
    if (rest.length === 0) {
      applyPlan(own[Number(head)], plan);
    } else {
      const list = byInstance.get(Number(head)) ?? [];
      list.push({ ...plan, key: rest.join("/") });
      byInstance.set(Number(head), list);
    }
  }
  await Promise.all(
    eachInstance(async (instance, index) => {
      instance.info = await instance.api.prepareMedia(byInstance.get(index) ?? []);
    }),
  );
  return describe();
}

function applyPlan(element: HTMLMediaElement | undefined, plan: MediaPlan): void {
  if (!element) return;
  if (plan.naturalDuration !== undefined && !element.hasAttribute("data-duration")) {
    element.setAttribute("data-duration", String(plan.naturalDuration));
  }
  if (!(element instanceof HTMLVideoElement)) return;
  if (plan.seekSource) {
    element.autoplay = false;
    element.pause();
    seekedVideos.add(element);
    return;
  }
  if (!plan.frames) return;
  // The source is not played: the renderer's frames are drawn through the poster, which keeps
  // the element's CSS box and object-fit.
  element.setAttribute("data-compose-src", mediaSource(element));
  element.pause();
  element.removeAttribute("src");
  for (const source of Array.from(element.querySelectorAll("source"))) source.remove();
  element.load();
  managedVideos.set(element, { video: element, ...plan.frames });
}

function frameUrl(frames: VideoFrames, index: number): string {
  return frames.urlPattern.replace("%06d", String(index).padStart(6, "0"));
}

async function decoded(url: string): Promise<void> {
  const image = new Image();
  image.src = url;
  await image.decode().catch(() => undefined);
}

/** Seeks a video to `time` in its source and waits until it shows it (or cannot). */
function seekSource(video: HTMLVideoElement, time: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      video.removeEventListener("seeked", done);
      video.removeEventListener("error", done);
      resolve();
    };
    video.addEventListener("seeked", done);
    video.addEventListener("error", done);
    video.currentTime = time;
  });
}

/** Shows, in each visible video, the extracted frame for its local time, or its own source seeked there. */
export async function showVideoFrames(clips: readonly TimedElement[], t: number): Promise<void> {
  if (managedVideos.size === 0 && seekedVideos.size === 0) return;
  const updates: Promise<void>[] = [];
  for (const { element, timing } of clips) {
    if (seekedVideos.has(element as HTMLVideoElement) && timing) {
      const video = element as HTMLVideoElement;
      const { mediaStart, playbackRate } = describeOwn(video, 0, timing);
      const time = mediaStart + Math.max(0, t - timing.start) * playbackRate;
      if (video.error === null && Math.abs(video.currentTime - time) > 1e-4) updates.push(seekSource(video, time));
      continue;
    }
    const frames = managedVideos.get(element as HTMLVideoElement);
    if (!frames || !timing) continue;
    const index = Math.min(frames.count - 1, Math.max(0, Math.round((t - timing.start) * frames.fps)));
    const url = frameUrl(frames, index);
    if (frames.shown === url) continue;
    frames.shown = url;
    updates.push(decoded(url).then(() => void (frames.video.poster = url)));
  }
  await Promise.all(updates);
}

/**
 * The gain of every timed media element now, keyed as describeMedia() keys them: its `volume`
 * (which a script or a GSAP tween may change over time), 0 once a script mutes it.
 */
export function mediaGains(): Record<string, number> {
  const gains: Record<string, number> = {};
  ownMedia().forEach((element, index) => {
    gains[String(index)] = element.muted ? 0 : element.volume;
  });
  eachInstance((instance, index) => {
    for (const [key, gain] of Object.entries(instance.api.mediaGains())) gains[`${index}/${key}`] = gain;
  });
  return gains;
}

/** The media gains at every seek of this page, in seek order: what the renderer turns into volume envelopes. */
export class GainLog {
  readonly #samples: Array<[number, Record<string, number>]> = [];

  record(t: number): void {
    const gains = mediaGains();
    if (Object.keys(gains).length > 0) this.#samples.push([t, gains]);
  }

  get samples(): Array<[number, Record<string, number>]> {
    return [...this.#samples];
  }
}
