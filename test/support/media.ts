import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { taggedRgbFilter } from "../../bench/lib/fidelity.js";

const execFileAsync = promisify(execFile);

/** What `ffprobe -show_format -show_streams -of json` prints (the fields the tests read). */
export interface ProbeStream {
  index: number;
  codec_name: string;
  codec_type: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  nb_read_frames?: string;
  color_space?: string;
  tags?: Record<string, string>;
}

export interface ProbeResult {
  streams: ProbeStream[];
  format: { format_name: string; duration?: string; size?: string; bit_rate?: string; tags?: Record<string, string> };
}

/** ffprobe of a file, as JSON. `countFrames` decodes the file to count its frames (nb_read_frames). */
export async function ffprobe(file: string, options: { countFrames?: boolean } = {}): Promise<ProbeResult> {
  const args = ["-v", "error", "-show_format", "-show_streams", "-of", "json"];
  if (options.countFrames) args.push("-count_frames");
  const { stdout } = await execFileAsync("ffprobe", [...args, file], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as ProbeResult;
}

export function videoStream(probe: ProbeResult): ProbeStream {
  const stream = probe.streams.find((s) => s.codec_type === "video");
  if (!stream) throw new Error("no video stream");
  return stream;
}

/** Frames in the first video stream, counted by decoding it. */
export async function countFrames(file: string): Promise<number> {
  const { stdout } = await execFileAsync("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-count_frames",
    "-show_entries",
    "stream=nb_read_frames",
    "-of",
    "csv=p=0",
    file,
  ]);
  return Number(stdout.trim());
}

/** A decoded image: RGBA, 4 bytes a pixel, rows top to bottom. */
export interface Frame {
  width: number;
  height: number;
  data: Buffer;
}

export type Rgba = [number, number, number, number];

export function pixel(frame: Frame, x: number, y: number): Rgba {
  if (x < 0 || y < 0 || x >= frame.width || y >= frame.height) {
    throw new RangeError(`pixel (${x}, ${y}) is outside ${frame.width}x${frame.height}`);
  }
  const i = (y * frame.width + x) * 4;
  const d = frame.data;
  return [d[i]!, d[i + 1]!, d[i + 2]!, d[i + 3]!];
}

/** Parses a stream of PAM images (what `-c:v pam -f image2pipe` writes) into frames. */
export function parsePamStream(buffer: Buffer): Frame[] {
  const frames: Frame[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const headerEnd = buffer.indexOf("ENDHDR\n", offset, "latin1");
    if (headerEnd < 0) throw new Error("truncated PAM stream");
    const header = buffer.toString("latin1", offset, headerEnd);
    const field = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(header)?.[1]);
    const width = field("WIDTH");
    const height = field("HEIGHT");
    const depth = field("DEPTH");
    if (depth !== 4) throw new Error(`expected RGBA PAM (DEPTH 4), got DEPTH ${depth}`);
    const start = headerEnd + "ENDHDR\n".length;
    const size = width * height * 4;
    frames.push({ width, height, data: buffer.subarray(start, start + size) });
    offset = start + size;
  }
  return frames;
}

async function ffmpegToBuffer(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`ffmpeg ${args.join(" ")} failed (${code}): ${stderr}`))));
  });
}

export interface DecodeOptions {
  /**
   * Decode VP9 with libvpx, which reads the alpha channel stored beside the colour planes
   * (ffmpeg's native VP9 decoder drops it).
   */
  vp9Alpha?: boolean;
  /** Read the pixels as the file's colour tags say, with exact rounding (ffmpeg's default guesses and rounds down). */
  asTagged?: boolean;
}

function inputArgs(file: string, options: DecodeOptions): string[] {
  return [...(options.vp9Alpha ? ["-c:v", "libvpx-vp9"] : []), "-i", file];
}

const RGBA_PAM_OUT = ["-pix_fmt", "rgba", "-c:v", "pam", "-f", "image2pipe", "pipe:1"];

/** Frame `index` (from 0) of a video, or the image of a PNG file (index 0), as RGBA. */
export async function decodeFrame(file: string, index = 0, options: DecodeOptions = {}): Promise<Frame> {
  return (await decodeFrames(file, [index], options))[0]!;
}

/**
 * Frames `indices` (from 0, in ascending order) of a video or of an image sequence pattern such as
 * dir/frame_%06d.png, as RGBA, from one ffmpeg run.
 */
export async function decodeFrames(file: string, indices: readonly number[], options: DecodeOptions = {}): Promise<Frame[]> {
  const select = `select=${indices.map((index) => `eq(n\\,${index})`).join("+")}${options.asTagged ? `,${await taggedRgbFilter(file, "rgba")}` : ""}`;
  const frames = parsePamStream(
    await ffmpegToBuffer([...inputArgs(file, options), "-vf", select, "-vsync", "passthrough", "-frames:v", String(indices.length), ...RGBA_PAM_OUT]),
  );
  if (frames.length !== indices.length) throw new Error(`${file} has no frame ${indices[frames.length]}`);
  return frames;
}

/** Every frame of a video, or of an image sequence pattern such as dir/frame_%06d.png, as RGBA. */
export async function decodeAllFrames(input: string, options: DecodeOptions = {}): Promise<Frame[]> {
  return parsePamStream(await ffmpegToBuffer([...inputArgs(input, options), "-vsync", "passthrough", ...RGBA_PAM_OUT]));
}

/** Largest channel difference between two colours (alpha included when both have it). */
export function colourDistance(a: readonly number[], b: readonly number[]): number {
  let max = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

export function hex(colour: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!match) throw new Error(`not a #rrggbb colour: ${colour}`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

/** True when the pixel's RGB is within `tolerance` of `colour` in every channel. */
export function isColour(frame: Frame, x: number, y: number, colour: readonly number[], tolerance = 24): boolean {
  return colourDistance(pixel(frame, x, y).slice(0, 3), colour.slice(0, 3)) <= tolerance;
}

export interface Span {
  /** First pixel of the run (inclusive). */
  left: number;
  /** Last pixel of the run (inclusive). */
  right: number;
}

/**
 * The first horizontal run of pixels on row `y` that have `colour` (within `tolerance`), or
 * undefined when the row has none. A box edge at a fractional x is anti-aliased: the default
 * tolerance accepts pixels more than about half covered, so the run's left is within 1 px of
 * the edge's true position.
 */
export function findSpan(frame: Frame, y: number, colour: readonly number[], tolerance = 110): Span | undefined {
  let left: number | undefined;
  for (let x = 0; x < frame.width; x++) {
    const match = isColour(frame, x, y, colour, tolerance);
    if (match && left === undefined) left = x;
    if (!match && left !== undefined) return { left, right: x - 1 };
  }
  return left === undefined ? undefined : { left, right: frame.width - 1 };
}

/** The x of the left edge of the first run of `colour` on row `y`, or undefined. */
export function boxX(frame: Frame, y: number, colour: readonly number[], tolerance?: number): number | undefined {
  return findSpan(frame, y, colour, tolerance)?.left;
}

/** Mean absolute difference per channel value between two frames of the same size (0-255). */
export function meanAbsoluteDifference(a: Frame, b: Frame): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error("frames differ in size");
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

/** Byte offsets and types of an ISO-BMFF (mp4/mov) file's top-level boxes, in file order. */
export function topLevelBoxes(file: Buffer): Array<{ type: string; offset: number; size: number }> {
  const boxes: Array<{ type: string; offset: number; size: number }> = [];
  let offset = 0;
  while (offset + 8 <= file.length) {
    let size = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    if (size === 1) size = Number(file.readBigUInt64BE(offset + 8));
    else if (size === 0) size = file.length - offset;
    if (size < 8) throw new Error(`bad box size ${size} at ${offset}`);
    boxes.push({ type, offset, size });
    offset += size;
  }
  return boxes;
}

/** The MD5 of every decoded frame of every stream (video and audio), in order: equal lists mean identical pictures and sound. */
export async function decodedFrameMd5s(file: string): Promise<string[]> {
  const { stdout } = await execFileAsync("ffmpeg", ["-v", "error", "-i", file, "-map", "0", "-f", "framemd5", "-"], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
}

/** What a GIF's blocks say of its timing: each frame's delay in hundredths, and the NETSCAPE2.0 loop count (undefined without one: it plays once). */
export interface GifTiming {
  delays: number[];
  loop: number | undefined;
}

/** Reads a GIF's blocks (GIF89a): the Graphic Control Extensions' delays and the NETSCAPE2.0 application extension's loop count. */
export function gifTiming(file: Buffer): GifTiming {
  if (file.toString("latin1", 0, 6) !== "GIF89a") throw new Error("not a GIF89a file");
  const colourTable = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let at = 13 + colourTable(file[10]!);
  /** Skips data sub-blocks (a length byte, then so many bytes, until a length of 0); returns them joined. */
  const subBlocks = () => {
    const parts: Buffer[] = [];
    for (let length = file[at++]!; length !== 0; length = file[at++]!) {
      parts.push(file.subarray(at, at + length));
      at += length;
    }
    return Buffer.concat(parts);
  };
  const timing: GifTiming = { delays: [], loop: undefined };
  for (;;) {
    const introducer = file[at++];
    if (introducer === 0x3b) return timing;
    if (introducer === 0x2c) {
      const packed = file[at + 8]!;
      at += 9 + colourTable(packed) + 1;
      subBlocks();
    } else if (introducer === 0x21) {
      const label = file[at++];
      const data = subBlocks();
      if (label === 0xf9) timing.delays.push(data.readUInt16LE(1));
      if (label === 0xff && data.toString("latin1", 0, 11) === "NETSCAPE2.0") timing.loop = data.readUInt16LE(12);
    } else {
      throw new Error(`unexpected GIF block 0x${introducer?.toString(16)} at ${at - 1}`);
    }
  }
}
