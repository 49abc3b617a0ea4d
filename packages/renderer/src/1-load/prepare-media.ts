import { availableParallelism } from "node:os";
import { join, relative, sep } from "node:path";
import pLimit from "p-limit";
import type { FrameImageFormat } from "../common/frame-image.js";
import { fileURLToPath } from "node:url";
import type { MediaDescription, MediaPlan } from "@compose/runtime";
import type { CompositionPage } from "../page/composition-page.js";
import type { PageNetwork } from "../web/network-policy.js";
import { RenderError } from "../common/render-error.js";
import { FRAMES_PREFIX, openServedFile } from "../web/project-server.js";
import type { AudioClip } from "../media/audio-clip.js";
import { extractFrames } from "../media/extract-frames.js";
import type { FrameFiles } from "../media/frame-files.js";
import type { MediaInput } from "../media/media-input.js";
import { contentHash, exists } from "../common/cache.js";
import { probeSource, type HdrTransfer, type SourceFacts } from "../media/probe-source.js";

export interface MediaContext {
  projectRoot: string;
  /** Media URLs that ffmpeg reads itself are held to the pages' network policy, through its proxy. */
  network?: PageNetwork;
  /** The project server's base URL: sources under it are project files. */
  baseUrl: string;
  fps: number;
  image: FrameImageFormat;
  /** Extract each video's frames for the pages to show (default); a page that is only described, never captured, needs none. */
  videoFrames?: boolean;
  signal?: AbortSignal;
  /** The render's server of extracted frames, which checks each frame as it serves it; a page served elsewhere (the preview's) has none. */
  frames?: FrameFiles;
  /** Takes a project media file held open for ffmpeg's reads, to close once the media are no longer read (the render's end). */
  keepOpen: (close: () => Promise<void>) => void;
}

/** What the media step needs of a page: its description, and a way to hand it the plans. */
export type MediaPage = Pick<CompositionPage, "describeMedia" | "prepareMedia">;

export interface PreparedMedia {
  /** What each page was handed of its media; a page opened later is handed the same. */
  plans: MediaPlan[];
  audio: AudioClip[];
  /** The transfer of the first HDR video source, if any. */
  hdr: HdrTransfer | undefined;
}

interface Source {
  input: MediaInput;
  /** The source as the composition names it: its path in the project, or its URL. */
  shown: string;
  /** Identifies the bytes, for the frame cache; undefined for a URL, whose bytes may change under it. */
  sourceId: string | undefined;
  facts: SourceFacts;
}

function name(media: MediaDescription): string {
  return `${media.kind} ${media.id ? `"${media.id}"` : `#${media.key}`}`;
}

function mediaError(media: MediaDescription, shown: string, problem: string): RenderError {
  return new RenderError("media-error", `${name(media)} (${shown}): ${problem}`);
}

/** A project URL becomes the file it serves; other http(s) URLs are read by ffmpeg, through the policy proxy when there is one. */
function locate(media: MediaDescription, context: MediaContext): { input: MediaInput; shown: string; local: boolean; project?: string } {
  if (media.src.startsWith(context.baseUrl)) {
    const path = decodeURIComponent(new URL(media.src).pathname);
    const file = join(context.projectRoot, path);
    if (relative(context.projectRoot, file).startsWith(`..${sep}`)) throw mediaError(media, path, "is outside the project directory");
    return { input: { location: file }, shown: path.replace(/^\//, ""), local: true, project: new URL(media.src).pathname };
  }
  if (/^https?:/.test(media.src)) return { input: { location: media.src, proxy: context.network?.proxy }, shown: media.src, local: false };
  if (media.src.startsWith("file:")) return { input: { location: fileURLToPath(media.src) }, shown: media.src, local: true };
  throw mediaError(media, media.src, "only project files and http(s) URLs can be media sources");
}

/**
 * Opens a project media file under the project-file rule, as the project server would serve it,
 * and names the open file for ffmpeg: on Linux by its descriptor (/proc/<pid>/fd/<n> opens the
 * very file checked, whatever its name leads to later), elsewhere by its real path. It stays open
 * until the context's end.
 */
async function openForFfmpeg(media: MediaDescription, urlPath: string, shown: string, context: MediaContext): Promise<string> {
  const opened = await openServedFile(context.projectRoot, urlPath);
  if (opened.kind === "missing") throw mediaError(media, shown, "the file does not exist");
  if (opened.kind === "refused") throw mediaError(media, shown, "is not a regular file inside the project (a dotfile, or a symbolic link out of it)");
  context.keepOpen(() => opened.handle.close());
  return process.platform === "linux" ? `/proc/${process.pid}/fd/${opened.handle.fd}` : opened.real;
}

async function openSource(media: MediaDescription, context: MediaContext): Promise<Source> {
  if (!media.src) throw new RenderError("media-error", `${name(media)} has no src`);
  const { input, shown, local, project } = locate(media, context);
  if (context.network && !project) {
    const { reason } = await context.network.ruling(media.src);
    if (reason !== undefined) {
      context.network.onRefused(media.src, reason);
      throw mediaError(media, shown, `refused by the network policy: ${reason}`);
    }
  }
  if (project !== undefined) input.location = await openForFfmpeg(media, project, shown, context);
  else if (local && !(await exists(input.location))) throw mediaError(media, shown, "the file does not exist");
  const facts = await probeSource(input).catch((error: unknown) => {
    if (error instanceof RenderError) throw error;
    throw mediaError(media, shown, `cannot be decoded: ${(error as Error).message}`);
  });
  if (media.kind === "video" && !facts.hasVideo) throw mediaError(media, shown, "has no video stream");
  return { input, shown, sourceId: local ? await contentHash(input.location) : undefined, facts };
}

/** The element's timeline when it has no data-duration: what is left of the source after data-media-start, at its rate. */
function naturalDuration(media: MediaDescription, facts: SourceFacts): number {
  return Math.max(0, facts.duration - media.mediaStart) / media.playbackRate;
}

/**
 * The media step between the page's readiness and capture: probes every timed <video> and
 * <audio> the live DOM has (top level and instances), gives the page their natural durations,
 * extracts each video's frames at the output fps for the page to show, and plans the audio mix.
 */
export async function prepareMedia(pages: readonly MediaPage[], context: MediaContext): Promise<PreparedMedia> {
  const first = pages[0]!;
  const described = await first.describeMedia();
  if (described.length === 0) return { plans: [], audio: [], hdr: undefined };

  const sources = new Map<string, Promise<Source>>();
  const sourceOf = (media: MediaDescription) => {
    if (!sources.has(media.src)) sources.set(media.src, openSource(media, context));
    return sources.get(media.src)!;
  };

  // One ffmpeg per core at a time: a composition may hold dozens of videos.
  const limit = pLimit(availableParallelism());
  const plans: MediaPlan[] = await Promise.all(
    described.map(async (media) => {
      const { input, shown, sourceId, facts } = await sourceOf(media);
      const natural = naturalDuration(media, facts);
      const plan: MediaPlan = { key: media.key };
      if (media.declaredDuration === undefined) plan.naturalDuration = natural;
      if (media.kind === "video" && context.videoFrames !== false) {
        const frames = await limit(() =>
          extractFrames(
            {
              input,
              sourceId,
              fps: context.fps,
              mediaStart: media.mediaStart,
              duration: media.declaredDuration ?? natural,
              playbackRate: media.playbackRate,
              image: context.image,
              hdr: facts.hdr,
              colour: facts.colour!,
            },
            context.signal,
          ),
        );
        context.frames?.hold(frames, `the frames extracted from ${shown}`);
        plan.frames = { urlPattern: `${context.baseUrl}${FRAMES_PREFIX.slice(1)}${frames.key}/${frames.pattern}`, count: frames.count, fps: context.fps };
      }
      return plan;
    }),
  );
  await Promise.all(pages.map((page) => page.prepareMedia(plans)));

  // Described again: starts relative to media, and instance windows, are known only now.
  const placed = await first.describeMedia();
  const audio: AudioClip[] = [];
  let hdr: HdrTransfer | undefined;
  for (const media of placed) {
    const { input, facts } = await sourceOf(media);
    if (media.kind === "video") hdr ??= facts.hdr;
    const duration = media.duration ?? naturalDuration(media, facts);
    if (!media.audible || !facts.hasAudio || media.start === undefined || duration <= 0 || media.volume === 0) continue;
    audio.push({
      key: media.key,
      input,
      start: media.start,
      duration,
      mediaStart: media.mediaStart,
      volume: media.volume,
      playbackRate: media.playbackRate,
      channels: facts.audioChannels,
    });
  }
  return { plans, audio, hdr };
}
