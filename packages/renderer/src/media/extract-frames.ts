import { join } from "node:path";
import type { FrameImageFormat } from "../common/frame-image.js";
import { runFfmpeg } from "../common/ffmpeg-process.js";
import type { HdrTransfer } from "./probe-source.js";
import type { SourceColour } from "./source-colour.js";
import {
  cachedDirectory,
  cacheRoot,
  contentAddressedDirectory,
  keyOf,
  refillDirectory,
  removeDamaged,
  type CacheCheck,
  type CacheEntry,
} from "../common/cache.js";
import { inputOptions, type MediaInput } from "./media-input.js";

export interface FrameExtraction {
  input: MediaInput;
  /** Identifies the source's content (a hash of its bytes); undefined when it may change under its name (a URL). */
  sourceId: string | undefined;
  fps: number;
  /** Seconds into the source where the element's timeline begins. */
  mediaStart: number;
  /** Seconds of the element's timeline (composition time). */
  duration: number;
  playbackRate: number;
  /** PNG keeps alpha for transparent outputs; JPEG is smaller and faster to load. */
  image: FrameImageFormat;
  hdr: HdrTransfer | undefined;
  /** The source's matrix and range; an HDR source is read as its tone mapping leaves it. */
  colour: SourceColour;
}

export interface ExtractedFrames {
  /** Directory name under the frames cache, also the URL segment the page loads them from. */
  key: string;
  entry: CacheEntry;
  count: number;
  pattern: string;
  /** Extracts them again into their entry, which was found damaged as it was read (`damage` says how). */
  refill(damage: string): Promise<CacheEntry>;
}

/**
 * An entry holds a frame for every frame of the clip: hundreds of MB for a minute of HD video,
 * too much to hash at every render. Names and sizes are checked at every use; each frame's bytes
 * as a render reads it (FrameFiles).
 */
const FRAMES_CHECK: CacheCheck = { hashes: false };

/** Browsers draw SDR: an HDR source is tone-mapped before the page shows it. */
const TONE_MAP = "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv";
const TONE_MAPPED: SourceColour = { matrix: "bt709", range: "tv" };

const EXACT = "flags=accurate_rnd+full_chroma_int+bitexact";

/**
 * The source's pixels as the colours the browser would show, each chroma sample interpolated
 * exactly; swscale's own guess would keep a YCbCr source's matrix into a JPEG that the browser
 * reads as BT.601. Then the image's own encoding: a 4:4:4 JFIF JPEG (BT.601, full range), or a
 * PNG without colour chunks (cHRM, gAMA), which the browser would colour-manage.
 */
function toImage(colour: SourceColour, image: FrameImageFormat): string {
  const rgb = `scale=in_color_matrix=${colour.matrix}:in_range=${colour.range}:${EXACT}`;
  const encoded = image === "png" ? "format=rgba" : `format=gbrp16le,scale=out_color_matrix=bt601:out_range=pc:${EXACT},format=yuvj444p`;
  return `${rgb},${encoded},setparams=color_primaries=unknown:color_trc=unknown:colorspace=unknown`;
}

export function extractionArgs(job: FrameExtraction, pattern: string): string[] {
  const frames = Math.max(1, Math.ceil(job.duration * job.fps - 1e-9));
  const filters = [
    ...(job.hdr ? [TONE_MAP] : []),
    // Source time = mediaStart + local time x rate; frame k of the output is local time k / fps.
    `setpts=(PTS-STARTPTS)/${job.playbackRate}`,
    `fps=${job.fps}`,
    // Both kinds hold the same picture: a 4:2:0 JPEG would leave the chroma to the browser's own
    // upsampling, and mp4 frames would then show the video differently from png-sequence frames.
    toImage(job.hdr ? TONE_MAPPED : job.colour, job.image),
  ];
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    ...(job.mediaStart > 0 ? ["-ss", String(job.mediaStart)] : []),
    ...inputOptions(job.input),
    "-i",
    job.input.location,
    "-map",
    "0:v:0",
    "-an",
    "-vf",
    filters.join(","),
    "-frames:v",
    String(frames),
    "-start_number",
    "0",
    ...(job.image === "jpeg" ? ["-q:v", "2"] : []),
    pattern,
  ];
}

/**
 * Extracts the frames one <video> shows, at the output fps, so every output frame shows exactly
 * the source frame of its time. Cached by source content and every parameter that changes them;
 * a source without a known content (a URL) is extracted anew, into the entry of what it holds.
 */
export async function extractFrames(job: FrameExtraction, signal?: AbortSignal): Promise<ExtractedFrames> {
  const extension = job.image === "png" ? "png" : "jpg";
  const pattern = `frame_%06d.${extension}`;
  const fill = (temp: string) => runFfmpeg(extractionArgs(job, join(temp, pattern)), signal);
  const root = join(cacheRoot(), "frames");
  const extracted = (key: string, entry: CacheEntry, refill: ExtractedFrames["refill"]): ExtractedFrames => ({
    key,
    entry,
    count: Object.keys(entry.manifest.files).filter((name) => name.endsWith(`.${extension}`)).length,
    pattern,
    refill,
  });
  if (job.sourceId === undefined) {
    const { key, entry } = await contentAddressedDirectory(root, fill, FRAMES_CHECK);
    return extracted(key, entry, async (damage) => {
      await removeDamaged(entry);
      return { ...(await contentAddressedDirectory(root, fill, FRAMES_CHECK)).entry, rebuilt: damage };
    });
  }
  const key = keyOf([
    "frames-v4",
    job.sourceId,
    job.fps,
    job.mediaStart,
    job.duration,
    job.playbackRate,
    extension,
    job.hdr ?? "sdr",
    job.colour.matrix,
    job.colour.range,
  ]);
  const entry = await cachedDirectory(join(root, key), fill, FRAMES_CHECK);
  return extracted(key, entry, (damage) => refillDirectory(entry, damage, fill, FRAMES_CHECK));
}
