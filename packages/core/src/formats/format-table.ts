import { FRAME_RATES, OUTPUT_FORMATS, type FrameRate, type OutputFormat, type QualityName } from "../options/option-declarations.js";

/** The colour tags of a file: what a player needs to turn its pixels back into the page's colours. */
export interface ColourTags {
  readonly matrix: "smpte170m" | "bt709";
  readonly primaries: string;
  readonly transfer: string;
  readonly range: "tv";
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

/**
 * How a format's SDR video is encoded: ffmpeg's encoder, the pixel format it is given, and the
 * settings that are the format's own (4-encode/encoder-args.ts spells them as ffmpeg options).
 * The x264 preset and the CRF of each quality preset are QUALITY_PRESETS'.
 */
export type VideoEncoding =
  | {
      readonly codec: "libx264";
      readonly pixelFormat: string;
      /** Chromium's JPEGs have centred chroma, which the conversion keeps. */
      readonly chromaSampleLocation: "center";
    }
  | {
      readonly codec: "libvpx-vp9";
      readonly pixelFormat: string;
      /** libvpx's speed: its deadline, and cpu-used per quality preset, which plays the role of x264's preset. */
      readonly deadline: "good";
      readonly cpuUsed: { readonly [Quality in QualityName]: number };
      /** Rows encoded in parallel, so that one encode uses more than one core. */
      readonly rowMultithreading: boolean;
      /** Alternate reference frames are not supported together with an alpha channel. */
      readonly alternateReferenceFrames: boolean;
    }
  | {
      readonly codec: "prores_ks";
      readonly pixelFormat: string;
      readonly profile: "4444";
      /** The quantiser per quality preset (lower is higher quality). */
      readonly qscale: { readonly [Quality in QualityName]: number };
      /** Apple's vendor id, as Apple's own encoder writes it; some editors check it. */
      readonly vendor: "apl0";
    }
  | { readonly codec: "png"; readonly pixelFormat: string }
  | PaletteEncoding;

/**
 * A paletted format (GIF): one palette of at most 256 colours is made from every frame, so the
 * frames are made in two passes. Each worker encodes its frames losslessly into a part
 * (`intermediate`); assembly makes the palette from all the parts (ffmpeg's palettegen), then
 * maps every frame to it (paletteuse): 5-assemble/palette-args.ts spells these as ffmpeg options.
 * docs/fidelity.md has the measurements behind the choices.
 */
export interface PaletteEncoding {
  readonly codec: "gif";
  readonly pixelFormat: "pal8";
  /** ffmpeg's muxer: the output is named by the user, so its extension may not say it. */
  readonly container: "gif";
  /**
   * The parts' codec: QuickTime Animation codes only the lines that changed since the frame
   * before, so a frame the page repeats costs next to nothing, and keeps alpha losslessly. A part
   * is read whole, from its start, so its one keyframe is its first (the interval is ffmpeg's
   * largest): more would only make it larger.
   */
  readonly intermediate: { readonly codec: "qtrle"; readonly pixelFormat: "argb"; readonly extension: ".mov"; readonly keyframeInterval: number };
  /** palettegen's histogram: of every pixel of every frame ("full"), or only of what changed from frame to frame ("diff"). */
  readonly statsMode: "full" | "diff";
  /** One palette entry kept for transparency: a pixel below `alphaThreshold` takes it. */
  readonly reserveTransparent: boolean;
  readonly alphaThreshold: number;
  /** paletteuse's dither, and for ordered (bayer) dithering the strength of its pattern (0 strongest, 5 weakest). */
  readonly dither: "bayer" | "sierra2_4a" | "floyd_steinberg" | "none";
  readonly bayerScale: number;
  /** Only the rectangle that changed since the frame before is mapped again: still areas keep their pixels exactly, frame after frame. */
  readonly changedRectangleOnly: boolean;
}

/**
 * What hdr output is, in every format the hdr option applies to: HEVC 10-bit with BT.2020
 * primaries and matrix, limited range, in the transfer of the composition's HDR video.
 */
export const HDR_VIDEO = {
  codec: "libx265",
  pixelFormat: "yuv420p10le",
  /** hvc1 rather than hev1, the sample entry Apple's players require. */
  tag: "hvc1",
  primaries: "bt2020",
  matrix: "bt2020nc",
  range: "tv",
  /** The transfer tag of each HDR transfer; PQ is also signalled as HDR10. */
  transfers: {
    pq: { tag: "smpte2084", hdr10: true },
    hlg: { tag: "arib-std-b67", hdr10: false },
  },
} as const;

/** The mixed audio of a format: ffmpeg's encoder and bitrate, the file it is written to, and that file's content type. */
export interface AudioEncoding {
  readonly codec: "aac" | "libopus";
  readonly bitrate: string;
  readonly file: string;
  readonly contentType: string;
}

/** What one output format is: every per-format question in the packages is answered here. */
export interface FormatFacts {
  /** The output file's extension with its dot; "" for a folder output. */
  readonly extension: string;
  /** The output's content type; for a folder output, that of each of its frames. */
  readonly contentType: string;
  /** Whether the output is a folder of numbered PNG frames (with the audio beside them) rather than one file. */
  readonly folder: boolean;
  /** Whether the container's index is moved to the front, so the file starts playing before it is fully downloaded. */
  readonly faststart: boolean;
  /** How frames leave the browser: JPEG for opaque H.264, PNG with alpha for the others. */
  readonly frameImage: "jpeg" | "png";
  /** Whether the output keeps an alpha channel, so the page's background is transparent. */
  readonly alpha: boolean;
  /** Whether the video is 4:2:0, so its width and height must be even. */
  readonly subsampled: boolean;
  /** The SDR video's encoding. */
  readonly video: VideoEncoding;
  /** The tags an SDR encode writes; none for PNG frames, which are the page's own sRGB. */
  readonly colour: ColourTags | undefined;
  /** The mixed audio; none for a format without sound (a composition's audio is then left out, with a warning). */
  readonly audio: AudioEncoding | undefined;
  /** The frame rates the format shows truly. */
  readonly frameRates: readonly FrameRate[];
  /** Whether the output says how many times it repeats (the gifLoop option). */
  readonly loop: boolean;
  /** Which of the options crf, videoBitrate, hdr (HDR_VIDEO) and gpu (a hardware H.264 encoder) apply. */
  readonly crf: boolean;
  readonly bitrate: boolean;
  readonly hdr: boolean;
  readonly hardware: boolean;
}

const AAC_IN_MP4: AudioEncoding = { codec: "aac", bitrate: "192k", file: "audio.m4a", contentType: "audio/mp4" };

export const FORMAT_TABLE: { readonly [Format in OutputFormat]: FormatFacts } = {
  mp4: {
    extension: ".mp4",
    contentType: "video/mp4",
    folder: false,
    faststart: true,
    frameImage: "jpeg",
    alpha: false,
    subsampled: true,
    video: { codec: "libx264", pixelFormat: "yuv420p", chromaSampleLocation: "center" },
    colour: BROWSER_TAGS,
    audio: AAC_IN_MP4,
    frameRates: FRAME_RATES,
    loop: false,
    crf: true,
    bitrate: true,
    hdr: true,
    hardware: true,
  },
  mov: {
    extension: ".mov",
    contentType: "video/quicktime",
    folder: false,
    faststart: true,
    frameImage: "png",
    alpha: true,
    subsampled: false,
    video: { codec: "prores_ks", pixelFormat: "yuva444p10le", profile: "4444", qscale: { draft: 12, standard: 6, high: 3 }, vendor: "apl0" },
    colour: BT709_TAGS,
    audio: AAC_IN_MP4,
    frameRates: FRAME_RATES,
    loop: false,
    crf: false,
    bitrate: false,
    hdr: false,
    hardware: false,
  },
  webm: {
    extension: ".webm",
    contentType: "video/webm",
    folder: false,
    faststart: false,
    frameImage: "png",
    alpha: true,
    subsampled: true,
    video: {
      codec: "libvpx-vp9",
      pixelFormat: "yuva420p",
      deadline: "good",
      cpuUsed: { draft: 8, standard: 4, high: 2 },
      rowMultithreading: true,
      alternateReferenceFrames: false,
    },
    colour: BROWSER_TAGS,
    audio: { codec: "libopus", bitrate: "160k", file: "audio.opus", contentType: "audio/ogg" },
    frameRates: FRAME_RATES,
    loop: false,
    crf: true,
    bitrate: true,
    hdr: false,
    hardware: false,
  },
  "png-sequence": {
    extension: "",
    contentType: "image/png",
    folder: true,
    faststart: false,
    frameImage: "png",
    alpha: true,
    subsampled: false,
    // Chromium writes RGB when a frame happens to be opaque; the sequence is RGBA throughout.
    video: { codec: "png", pixelFormat: "rgba" },
    colour: undefined,
    audio: { codec: "aac", bitrate: "192k", file: "audio.aac", contentType: "audio/aac" },
    frameRates: FRAME_RATES,
    loop: false,
    crf: false,
    bitrate: false,
    hdr: false,
    hardware: false,
  },
  gif: {
    extension: ".gif",
    contentType: "image/gif",
    folder: false,
    faststart: false,
    frameImage: "png",
    alpha: true,
    subsampled: false,
    video: {
      codec: "gif",
      pixelFormat: "pal8",
      container: "gif",
      intermediate: { codec: "qtrle", pixelFormat: "argb", extension: ".mov", keyframeInterval: 2 ** 31 - 1 },
      statsMode: "full",
      reserveTransparent: true,
      alphaThreshold: 128,
      dither: "floyd_steinberg",
      bayerScale: 2,
      changedRectangleOnly: true,
    },
    colour: undefined,
    audio: undefined,
    // A GIF shows a frame for whole hundredths of a second, and browsers hold a frame of less than
    // two for a tenth: at 60 fps every third frame would be one hundredth long.
    frameRates: [24, 30],
    loop: true,
    crf: false,
    bitrate: false,
    hdr: false,
    hardware: false,
  },
};

export function formatFacts(format: OutputFormat): FormatFacts {
  return FORMAT_TABLE[format];
}

/** The formats a fact holds for, in the order of OUTPUT_FORMATS: `formatsWhere("crf")` is mp4 and webm. */
export function formatsWhere(fact: "alpha" | "subsampled" | "loop" | "crf" | "bitrate" | "hdr" | "hardware"): OutputFormat[] {
  return OUTPUT_FORMATS.filter((format) => FORMAT_TABLE[format][fact]);
}

/** Whether the output is a folder of frames (and a still, one of its frames) rather than one video file. */
export function isFolderOutput(format: OutputFormat): boolean {
  return FORMAT_TABLE[format].folder;
}

/** The format whose output is a folder of frames: what a directory as the output asks for, and what a still is rendered as. */
export const FOLDER_FORMAT: OutputFormat = OUTPUT_FORMATS.find(isFolderOutput)!;

/** Whether the gpu option may put the format's video on a hardware encoder. */
export function allowsHardwareEncoding(format: OutputFormat): boolean {
  return FORMAT_TABLE[format].hardware;
}

/** Whether a video encoding is made in two passes, a palette from every frame and then the frames mapped to it. */
export function isPaletteEncoding(video: VideoEncoding): video is PaletteEncoding {
  return video.codec === "gif";
}

/** The encoding of a format made in two passes (isPaletteEncoding); undefined for the others. */
export function paletteEncoding(format: OutputFormat): PaletteEncoding | undefined {
  const { video } = FORMAT_TABLE[format];
  return isPaletteEncoding(video) ? video : undefined;
}

/** The extension of the parts a render's workers encode: the output's own, or a paletted format's intermediate. */
export function partExtension(format: OutputFormat): string {
  return paletteEncoding(format)?.intermediate.extension ?? FORMAT_TABLE[format].extension;
}

/** The content type of a file an output is made of, by its extension: a video, a frame, or its audio. */
export function contentTypeOfFile(path: string): string | undefined {
  const name = path.toLowerCase();
  for (const format of OUTPUT_FORMATS) {
    const facts = FORMAT_TABLE[format];
    if (facts.extension && name.endsWith(facts.extension)) return facts.contentType;
    const audio = facts.audio;
    if (audio && name.endsWith(audio.file.slice(audio.file.lastIndexOf(".")))) return audio.contentType;
  }
  return name.endsWith(".png") ? FORMAT_TABLE[FOLDER_FORMAT].contentType : undefined;
}
