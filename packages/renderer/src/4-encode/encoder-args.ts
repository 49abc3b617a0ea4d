import { join } from "node:path";
import { frameImageFormat, type FrameImageFormat } from "../common/frame-image.js";
import { SEQUENCE_FRAME_PATTERN } from "../output/output-names.js";
import { QUALITY_PRESETS, type OutputFormat } from "@compose/core";
import type { HdrTransfer } from "../media/probe-source.js";
import type { EncodeSettings, EncodeTarget } from "../2-plan/render-plan.js";

/** VP9 speed per quality preset: libvpx's cpu-used plays the role of x264's preset. */
const VP9_CPU_USED = { draft: 8, standard: 4, high: 2 } as const;

/** ProRes 4444 quantiser per quality preset (lower is higher quality). */
const PRORES_QSCALE = { draft: 12, standard: 6, high: 3 } as const;

const TRANSFER_TAGS: Record<HdrTransfer, string> = { pq: "smpte2084", hlg: "arib-std-b67" };

/**
 * The page is SDR sRGB; SDR white is placed at 203 nits (ITU-R BT.2408's reference white), so
 * the composition looks as designed on an HDR display and HDR video frames keep their headroom.
 */
function hdrArgs(settings: EncodeSettings, rate: string[]): string[] {
  const transfer = TRANSFER_TAGS[settings.hdr!];
  const preset = QUALITY_PRESETS[settings.quality];
  return [
    "-c:v", "libx265", "-preset", preset.x264Preset, ...rate,
    "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
    "-x265-params", `log-level=error:colorprim=bt2020:transfer=${transfer}:colormatrix=bt2020nc${settings.hdr === "pq" ? ":hdr10=1" : ""}`,
    "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", "-color_range", "tv",
  ];
}

/** The input half: frames arrive on stdin as a Matroska stream of timestamped images (matroska-frames.ts). */
const FRAME_INPUT_ARGS = ["-f", "matroska", "-i", "pipe:0"];

/**
 * swscale's exact mode: rounding to nearest and chroma taken at every pixel. Its default rounds
 * down and interpolates chroma coarsely, which shifts flat colours by up to 4 levels.
 */
const EXACT_SCALE_FLAGS = "accurate_rnd+full_chroma_int+bitexact";

/** The colour tags of a file: what a player needs to turn its pixels back into the page's colours. */
interface ColourTags {
  matrix: "smpte170m" | "bt709";
  primaries: string;
  transfer: string;
  range: "tv";
}

/**
 * What chromium and firefox-esr play as the page drew it: limited range with the BT.601 matrix
 * (docs/fidelity.md has the table of what was tried). Both read a BT.709 matrix as if it were
 * close to BT.601, 12 levels off, and firefox ignores the full-range flag. BT.709 primaries and
 * transfer are sRGB's, so players leave those alone.
 */
const BROWSER_TAGS: ColourTags = { matrix: "smpte170m", primaries: "bt709", transfer: "bt709", range: "tv" };

/** ProRes goes to editors, which expect BT.709 and read its tags. */
const BT709_TAGS: ColourTags = { matrix: "bt709", primaries: "bt709", transfer: "bt709", range: "tv" };

/** swscale's name for each matrix. */
const SCALE_MATRIX = { smpte170m: "bt601", bt709: "bt709" } as const;

function colourTagArgs(tags: ColourTags): string[] {
  return ["-colorspace", tags.matrix, "-color_primaries", tags.primaries, "-color_trc", tags.transfer, "-color_range", tags.range];
}

/** The tags each SDR encode writes; png-sequence has none (its PNGs are the page's sRGB). */
function colourTags(settings: EncodeSettings): ColourTags | undefined {
  if (settings.format === "png-sequence") return undefined;
  return settings.format === "mov" ? BT709_TAGS : BROWSER_TAGS;
}

/**
 * The exact conversion from a decoded frame to the limited-range YCbCr of `tags` in `pixelFormat`.
 * Chromium's JPEGs are JFIF (BT.601, full range, 4:2:0 with centred chroma): to limited-range
 * BT.601 4:2:0 that is a change of levels only, plane by plane, with no chroma resampling. The
 * frames are labelled too: ProRes writes each frame's own labels into its header, where players
 * read them.
 */
function toLimited(image: FrameImageFormat, tags: ColourTags, pixelFormat: string): string {
  const input = image === "jpeg" ? "in_range=full:in_color_matrix=bt601:" : "";
  return [
    `scale=${input}out_range=tv:out_color_matrix=${SCALE_MATRIX[tags.matrix]}:flags=${EXACT_SCALE_FLAGS}`,
    `format=${pixelFormat}`,
    `setparams=colorspace=${tags.matrix}:color_primaries=${tags.primaries}:color_trc=${tags.transfer}`,
  ].join(",");
}

/** The pixel format each SDR encoder is given. */
function pixelFormat(settings: EncodeSettings): string {
  switch (settings.format) {
    case "mp4":
      return "yuv420p";
    case "webm":
      return "yuva420p";
    case "mov":
      return "yuva444p10le";
    case "png-sequence":
      return "rgba";
  }
}

/**
 * The exact conversion of a decoded `image` to the pixels and labels of the file `settings`
 * make; none for png-sequence, whose PNGs are the page's own.
 */
export function colourConversion(settings: EncodeSettings, image: FrameImageFormat): string | undefined {
  const tags = colourTags(settings);
  return tags && toLimited(image, tags, pixelFormat(settings));
}

/**
 * The filters from decoded image to encoder: the colour conversion, if any, then the fps filter,
 * which repeats each converted image until the next one's timestamp and so makes every frame of
 * the stream; then, for a hardware encoder, the upload of each frame.
 */
function videoFilter(settings: EncodeSettings): string {
  const fps = `fps=${settings.fps}`;
  if (settings.hdr) {
    const transfer = TRANSFER_TAGS[settings.hdr];
    return `zscale=rangein=full:matrixin=170m:transferin=iec61966-2-1:primariesin=709:transfer=${transfer}:matrix=2020_ncl:primaries=2020:range=limited:npl=203,format=yuv420p10le,${fps}`;
  }
  const convert = colourConversion(settings, frameImageFormat(settings.format));
  return [convert, fps, settings.hardware?.uploadFilter].filter(Boolean).join(",");
}

/** The codec half for one format, per the output formats and quality presets of the README. */
export function videoCodecArgs(settings: EncodeSettings): string[] {
  const preset = QUALITY_PRESETS[settings.quality];
  const rate = settings.videoBitrate
    ? ["-b:v", settings.videoBitrate]
    : ["-crf", String(settings.crf ?? preset.crf)];
  const tags = colourTags(settings);
  switch (settings.format) {
    case "mp4": {
      if (settings.hdr) return hdrArgs(settings, rate);
      const { hardware } = settings;
      const codec = hardware
        ? ["-c:v", hardware.name, ...(settings.videoBitrate ? rate : hardware.qualityArgs(settings.crf ?? preset.crf))]
        : ["-c:v", "libx264", "-preset", preset.x264Preset, ...rate, "-chroma_sample_location", "center"];
      return [
        ...codec,
        ...(settings.videoBitrate ? ["-maxrate", settings.videoBitrate, "-bufsize", doubleBitrate(settings.videoBitrate)] : []),
        // Uploaded frames already have the device's format.
        ...(hardware?.uploadFilter ? [] : ["-pix_fmt", pixelFormat(settings)]),
        ...colourTagArgs(tags!),
      ];
    }
    case "webm":
      return [
        "-c:v", "libvpx-vp9", "-pix_fmt", pixelFormat(settings), ...rate,
        ...(settings.videoBitrate ? [] : ["-b:v", "0"]),
        "-deadline", "good", "-cpu-used", String(VP9_CPU_USED[settings.quality]), "-row-mt", "1",
        // Alternate reference frames are not supported together with an alpha channel.
        "-auto-alt-ref", "0",
        ...colourTagArgs(tags!),
      ];
    case "mov":
      return [
        "-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", pixelFormat(settings),
        "-qscale:v", String(PRORES_QSCALE[settings.quality]), "-vendor", "apl0",
        ...colourTagArgs(tags!),
      ];
    case "png-sequence":
      // Chromium writes RGB when a frame happens to be opaque; the sequence is RGBA throughout.
      return ["-c:v", "png", "-pix_fmt", pixelFormat(settings)];
  }
}

function doubleBitrate(bitrate: string): string {
  const unit = bitrate.slice(-1);
  return `${Number(bitrate.slice(0, -1)) * 2}${unit}`;
}

/** Container flags for the file a user receives: mp4 and mov start playing before fully downloaded. */
export function containerArgs(format: OutputFormat): string[] {
  return format === "mp4" || format === "mov" ? ["-movflags", "+faststart"] : [];
}

function targetArgs(format: OutputFormat, target: EncodeTarget): string[] {
  switch (target.kind) {
    case "file":
      return [...containerArgs(format), target.path];
    case "chunk":
      return [target.path];
    case "sequence":
      return ["-start_number", String(target.firstFrame), "-f", "image2", join(target.directory, SEQUENCE_FRAME_PATTERN)];
  }
}

/**
 * Full argument list for encoding a stream of `frames` frames; the count keeps out the image
 * that marks the end of the stream (frame-sink.ts).
 */
export function encodeArgs(settings: EncodeSettings, target: EncodeTarget, frames: number): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-y",
    ...(settings.hardware?.deviceArgs ?? []),
    ...FRAME_INPUT_ARGS,
    "-vf", videoFilter(settings),
    ...videoCodecArgs(settings),
    "-r", String(settings.fps), "-frames:v", String(frames),
    ...targetArgs(settings.format, target),
  ];
}
