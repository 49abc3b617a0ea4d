// Media prepared by the browser, for a player that has no server with ffmpeg behind it: natural
// lengths read from each source's metadata, and videos that show their own source seeked to each
// frame's time (render shows the frames ffmpeg extracts; the browser's decoding may differ slightly).
import type { ComposeApi, CompositionInfo, MediaDescription, MediaPlan } from "@compose/runtime";

/** The length of a source in seconds, from its metadata. */
function naturalDuration(media: MediaDescription): Promise<number> {
  return new Promise((resolve, reject) => {
    const element = document.createElement(media.kind);
    element.preload = "metadata";
    element.muted = true;
    element.addEventListener("loadedmetadata", () => resolve(element.duration), { once: true });
    element.addEventListener("error", () => reject(new Error(`${media.kind} ${media.src} could not be loaded`)), { once: true });
    element.src = media.src;
  });
}

async function planOf(media: MediaDescription): Promise<MediaPlan> {
  const plan: MediaPlan = { key: media.key };
  if (media.declaredDuration === undefined && media.src) {
    const seconds = await naturalDuration(media);
    // What the source plays from data-media-start at its rate.
    plan.naturalDuration = Math.max(0, (seconds - media.mediaStart) / media.playbackRate);
  }
  if (media.kind === "video") plan.seekSource = true;
  return plan;
}

/** Prepares the page's media as the browser can; resolves to its description, updated. */
export async function prepareMediaInBrowser(api: ComposeApi, info: CompositionInfo): Promise<CompositionInfo> {
  const media = api.describeMedia();
  if (media.length === 0) return info;
  return api.prepareMedia(await Promise.all(media.map(planOf)));
}
