import { join } from "node:path";
import { frameImageFormat, type FrameImageFormat } from "../common/frame-image.js";
import { SEQUENCE_FRAME_PATTERN } from "../output/output-names.js";
import { FORMAT_TABLE, HDR_VIDEO, isPaletteEncoding, QUALITY_PRESETS, type ColourTags, type OutputFormat } from "@compose/core";
import type { EncodeSettings, EncodeTarget } from "../2-plan/render-plan.js";

/**
 * The page is SDR sRGB; SDR white is placed at 203 nits (ITU-R BT.2408's reference white), so
 * the composition looks as designed on an HDR display and HDR video frames keep their headroom.
 */
function hdrArgs(settings: EncodeSettings, rate: string[]): string[] {
  const transfer = HDR_VIDEO.transfers[settings.hdr!];
  const preset = QUALITY_PRESETS[settings.quality];
  return [
    "-c:v",
    HDR_VIDEO.codec,
    "-preset",
    preset.x264Preset,
    ...rate,
    "-pix_fmt",
    HDR_VIDEO.pixelFormat,
    "-tag:v",
    HDR_VIDEO.tag,
    "-x265-params",
    `log-level=error:colorprim=${HDR_VIDEO.primaries}:transfer=${transfer.tag}:colormatrix=${HDR_VIDEO.matrix}${transfer.hdr10 ? ":hdr10=1" : ""}`,
    "-color_primaries",
    HDR_VIDEO.primaries,
    "-color_trc",
    transfer.tag,
    "-colorspace",
    HDR_VIDEO.matrix,
    "-color_range",
    HDR_VIDEO.range,
  ];
}

/** The input half: frames arrive on stdin as a Matroska stream of timestamped images (matroska-frames.ts). */
const FRAME_INPUT_ARGS = ["-f", "matroska", "-i", "pipe:0"];

/**
 * swscale's exact mode: rounding to nearest and chroma taken at every pixel. Its default rounds
 * down and interpolates chroma coarsely, which shifts flat colours by up to 4 levels.
 */
const EXACT_SCALE_FLAGS = "accurate_rnd+full_chroma_int+bitexact";

/** swscale's name for each matrix. */
const SCALE_MATRIX = { smpte170m: "bt601", bt709: "bt709" } as const;

function colourTagArgs(tags: ColourTags): string[] {
  return ["-colorspace", tags.matrix, "-color_primaries", tags.primaries, "-color_trc", tags.transfer, "-color_range", tags.range];
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

/**
 * The exact conversion of a decoded `image` to the pixels and labels of the file `settings`
 * make; none for png-sequence, whose PNGs are the page's own.
 */
export function colourConversion(settings: EncodeSettings, image: FrameImageFormat): string | undefined {
  const { colour, video } = FORMAT_TABLE[settings.format];
  return colour && toLimited(image, colour, video.pixelFormat);
}

/**
 * Frames captured larger than the output (a scale below the smallest the browser draws at,
 * page/device-scale.ts) reduced to it, each output pixel the mean of the pixels it covers. With
 * alpha the colours are weighed by it (premultiplied), so that a transparent pixel's colour does
 * not darken the edges it borders.
 */
function reduction(settings: EncodeSettings): string | undefined {
  if (!settings.capturedSize) return undefined;
  const scale = `scale=${settings.width}:${settings.height}:flags=area+accurate_rnd+bitexact`;
  return FORMAT_TABLE[settings.format].alpha ? `premultiply=inplace=1,${scale},unpremultiply=inplace=1` : scale;
}

/**
 * The filters from decoded image to encoder: the reduction to the output's size, if any, and the
 * colour conversion, if any, then the fps filter, which repeats each converted image until the
 * next one's timestamp and so makes every frame of the stream; then, for a hardware encoder, the
 * upload of each frame.
 */
function videoFilter(settings: EncodeSettings): string {
  const fps = `fps=${settings.fps}`;
  const reduce = reduction(settings);
  if (settings.hdr) {
    const transfer = HDR_VIDEO.transfers[settings.hdr].tag;
    const toHdr = `zscale=rangein=full:matrixin=170m:transferin=iec61966-2-1:primariesin=709:transfer=${transfer}:matrix=2020_ncl:primaries=2020:range=limited:npl=203,format=${HDR_VIDEO.pixelFormat}`;
    return [reduce, toHdr, fps].filter(Boolean).join(",");
  }
  const convert = colourConversion(settings, frameImageFormat(settings.format));
  return [reduce, convert, fps, settings.hardware?.uploadFilter].filter(Boolean).join(",");
}

/** The codec half: the format's encoder (in the format table) with its settings, per the quality presets of the README. */
export function videoCodecArgs(settings: EncodeSettings): string[] {
  const preset = QUALITY_PRESETS[settings.quality];
  const rate = settings.videoBitrate ? ["-b:v", settings.videoBitrate] : ["-crf", String(settings.crf ?? preset.crf)];
  const { video, colour } = FORMAT_TABLE[settings.format];
  if (isPaletteEncoding(video)) {
    // A worker's part, kept losslessly until assembly makes the palette from every part (5-assemble/palette-args.ts).
    const { intermediate } = video;
    return ["-c:v", intermediate.codec, "-pix_fmt", intermediate.pixelFormat, "-g", String(intermediate.keyframeInterval)];
  }
  switch (video.codec) {
    case "libx264": {
      if (settings.hdr) return hdrArgs(settings, rate);
      const { hardware } = settings;
      const codec = hardware
        ? ["-c:v", hardware.name, ...(settings.videoBitrate ? rate : hardware.qualityArgs(settings.crf ?? preset.crf))]
        : ["-c:v", video.codec, "-preset", preset.x264Preset, ...rate, "-chroma_sample_location", video.chromaSampleLocation];
      return [
        ...codec,
        ...(settings.videoBitrate ? ["-maxrate", settings.videoBitrate, "-bufsize", doubleBitrate(settings.videoBitrate)] : []),
        // Uploaded frames already have the device's format.
        ...(hardware?.uploadFilter ? [] : ["-pix_fmt", video.pixelFormat]),
        ...colourTagArgs(colour!),
      ];
    }
    case "libvpx-vp9":
      return [
        "-c:v",
        video.codec,
        "-pix_fmt",
        video.pixelFormat,
        ...rate,
        // Without a bitrate, a CRF is libvpx's constant quality only with -b:v 0.
        ...(settings.videoBitrate ? [] : ["-b:v", "0"]),
        "-deadline",
        video.deadline,
        "-cpu-used",
        String(video.cpuUsed[settings.quality]),
        "-row-mt",
        switchArg(video.rowMultithreading),
        "-auto-alt-ref",
        switchArg(video.alternateReferenceFrames),
        ...colourTagArgs(colour!),
      ];
    case "prores_ks":
      return [
        "-c:v",
        video.codec,
        "-profile:v",
        video.profile,
        "-pix_fmt",
        video.pixelFormat,
        "-qscale:v",
        String(video.qscale[settings.quality]),
        "-vendor",
        video.vendor,
        ...colourTagArgs(colour!),
      ];
    case "png":
      return ["-c:v", video.codec, "-pix_fmt", video.pixelFormat];
  }
}

/** An encoder's on/off option, as ffmpeg takes it. */
function switchArg(on: boolean): string {
  return on ? "1" : "0";
}

function doubleBitrate(bitrate: string): string {
  const unit = bitrate.slice(-1);
  return `${Number(bitrate.slice(0, -1)) * 2}${unit}`;
}

/** Container flags for the file a user receives: the index up front where the format's container has one. */
export function containerArgs(format: OutputFormat): string[] {
  return FORMAT_TABLE[format].faststart ? ["-movflags", "+faststart"] : [];
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
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    ...(settings.hardware?.deviceArgs ?? []),
    ...FRAME_INPUT_ARGS,
    "-vf",
    videoFilter(settings),
    ...videoCodecArgs(settings),
    "-r",
    String(settings.fps),
    "-frames:v",
    String(frames),
    ...targetArgs(settings.format, target),
  ];
}
