import { join } from "node:path";
import type { MediaDescription, MediaPlan } from "@compose/runtime";
import { frameImageFormat } from "../common/frame-image.js";
import { cacheRoot } from "../common/cache.js";
import { prepareMedia } from "./prepare-media.js";

export { FRAMES_PREFIX } from "../web/project-server.js";

/** Where extracted frames are kept; FRAMES_PREFIX serves this folder. */
export function framesDirectory(): string {
  return join(cacheRoot(), "frames");
}

export interface MediaPlanRequest {
  /** What a page's describeMedia() gave. */
  media: MediaDescription[];
  projectRoot: string;
  /** The base URL the page loads the project from; frame URLs are under it. */
  baseUrl: string;
  fps: number;
  signal?: AbortSignal;
}

/**
 * The plans render hands its pages (natural durations, and each video's frames extracted as an
 * mp4 render extracts them), for a page that lives elsewhere: compose preview's.
 */
export async function planMedia(request: MediaPlanRequest): Promise<MediaPlan[]> {
  let plans: MediaPlan[] = [];
  const page = {
    describeMedia: async () => request.media,
    prepareMedia: async (planned: MediaPlan[]) => void (plans = planned),
  };
  const opened: Array<() => Promise<void>> = [];
  try {
    await prepareMedia([page], {
      projectRoot: request.projectRoot,
      baseUrl: request.baseUrl,
      fps: request.fps,
      image: frameImageFormat("mp4"),
      signal: request.signal,
      keepOpen: (close) => opened.push(close),
    });
  } finally {
    await Promise.all(opened.map((close) => close()));
  }
  return plans;
}
