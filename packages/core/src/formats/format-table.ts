import { OUTPUT_FORMATS, type OutputFormat } from "../options/option-declarations.js";

/** What one output format is: every per-format question in the packages is answered here. */
export interface FormatFacts {
  /** The output file's extension with its dot; "" for png-sequence, whose output is a folder. */
  readonly extension: string;
  /** The output's content type; for png-sequence, that of each of its frames. */
  readonly contentType: string;
  /** How frames leave the browser: JPEG for opaque H.264, PNG with alpha for the others. */
  readonly frameImage: "jpeg" | "png";
  /** Whether the output keeps an alpha channel, so the page's background is transparent. */
  readonly alpha: boolean;
  /** Whether the video is 4:2:0, so its width and height must be even. */
  readonly subsampled: boolean;
  /** The mixed audio: ffmpeg's encoder, the file it is written to, and that file's content type. */
  readonly audio: { readonly codec: "aac" | "libopus"; readonly file: string; readonly contentType: string };
  /** Which of the options crf, videoBitrate and hdr apply. */
  readonly crf: boolean;
  readonly bitrate: boolean;
  readonly hdr: boolean;
}

export const FORMAT_TABLE: { readonly [Format in OutputFormat]: FormatFacts } = {
  mp4: {
    extension: ".mp4",
    contentType: "video/mp4",
    frameImage: "jpeg",
    alpha: false,
    subsampled: true,
    audio: { codec: "aac", file: "audio.m4a", contentType: "audio/mp4" },
    crf: true,
    bitrate: true,
    hdr: true,
  },
  mov: {
    extension: ".mov",
    contentType: "video/quicktime",
    frameImage: "png",
    alpha: true,
    subsampled: false,
    audio: { codec: "aac", file: "audio.m4a", contentType: "audio/mp4" },
    crf: false,
    bitrate: false,
    hdr: false,
  },
  webm: {
    extension: ".webm",
    contentType: "video/webm",
    frameImage: "png",
    alpha: true,
    subsampled: true,
    audio: { codec: "libopus", file: "audio.opus", contentType: "audio/ogg" },
    crf: true,
    bitrate: true,
    hdr: false,
  },
  "png-sequence": {
    extension: "",
    contentType: "image/png",
    frameImage: "png",
    alpha: true,
    subsampled: false,
    audio: { codec: "aac", file: "audio.aac", contentType: "audio/aac" },
    crf: false,
    bitrate: false,
    hdr: false,
  },
};

export function formatFacts(format: OutputFormat): FormatFacts {
  return FORMAT_TABLE[format];
}

/** The formats a fact holds for, in the order of OUTPUT_FORMATS: `formatsWhere("crf")` is mp4 and webm. */
export function formatsWhere(fact: "alpha" | "crf" | "bitrate" | "hdr"): OutputFormat[] {
  return OUTPUT_FORMATS.filter((format) => FORMAT_TABLE[format][fact]);
}

/** The content type of a file an output is made of, by its extension: a video, a frame, or its audio. */
export function contentTypeOfFile(path: string): string | undefined {
  const name = path.toLowerCase();
  for (const format of OUTPUT_FORMATS) {
    const facts = FORMAT_TABLE[format];
    if (facts.extension && name.endsWith(facts.extension)) return facts.contentType;
    if (name.endsWith(facts.audio.file.slice(facts.audio.file.lastIndexOf(".")))) return facts.audio.contentType;
  }
  return name.endsWith(".png") ? FORMAT_TABLE["png-sequence"].contentType : undefined;
}
