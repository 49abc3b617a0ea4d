/**
 * How a video source's YCbCr turns into the colours a browser shows: its matrix and range, in
 * swscale's names. A tag the source carries is taken as it says; an untagged source is read as
 * browsers read one (docs/fidelity.md): BT.709 from 720 lines up, BT.601 below.
 */
export interface SourceColour {
  matrix: "bt601" | "bt709" | "bt2020" | "fcc" | "smpte240m";
  range: "tv" | "pc";
}

/** What ffprobe says of a video stream's colour. */
export interface ProbedColour {
  color_space?: string;
  color_range?: string;
  pix_fmt?: string;
  height?: number;
}

const MATRICES: Record<string, SourceColour["matrix"]> = {
  bt709: "bt709",
  smpte170m: "bt601",
  bt470bg: "bt601",
  bt2020nc: "bt2020",
  bt2020c: "bt2020",
  fcc: "fcc",
  smpte240m: "smpte240m",
};

/** Lines from which browsers take an untagged video for HD, and read it as BT.709. */
const HD_LINES = 720;

export function sourceColour(stream: ProbedColour): SourceColour {
  const matrix = MATRICES[stream.color_space ?? ""] ?? ((stream.height ?? 0) >= HD_LINES ? "bt709" : "bt601");
  // yuvj formats are full range whether or not the stream says so.
  const range = stream.color_range === "pc" || stream.pix_fmt?.startsWith("yuvj") ? "pc" : "tv";
  return { matrix, range };
}
