/**
 * Media files for the media tests, generated with ffmpeg into a project directory (call it once
 * per test file, in beforeAll). Every clip is tiny, so generating all of them takes about a second.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { limited, render, type CliResult } from "./cli.js";
import { colourDistance, pixel, type Frame } from "./media.js";
import { createProject, type TempProject } from "./project.js";

const execFileAsync = promisify(execFile);

async function ffmpeg(args: string[]): Promise<void> {
  await execFileAsync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { maxBuffer: 16 * 1024 * 1024 });
}

/** The colours of the four-colour clip, each shown for 0.5 s, in order. */
export const CLIP_COLOURS = {
  red: [255, 0, 0],
  lime: [0, 255, 0],
  blue: [0, 0, 255],
  white: [255, 255, 255],
} as const;
export const CLIP_SEQUENCE = ["red", "lime", "blue", "white"] as const;
/** Seconds each colour of the four-colour clip lasts. */
export const CLIP_SEGMENT = 0.5;

/** The colours of the other clip (for switching sources): yellow then magenta, 0.5 s each. */
export const OTHER_COLOURS = {
  yellow: [255, 255, 0],
  magenta: [255, 0, 255],
} as const;

/** Frames per second of every generated clip. */
export const CLIP_FPS = 30;

/** Colour name of the four-colour clip's frame `frame` (0-59; 15 frames a colour). */
export function clipColourOfFrame(frame: number): (typeof CLIP_SEQUENCE)[number] {
  if (frame < 0 || frame >= 60) throw new RangeError(`the four-colour clip has no frame ${frame}`);
  return CLIP_SEQUENCE[Math.floor(frame / (CLIP_SEGMENT * CLIP_FPS))]!;
}

export type MediaName = "colours" | "other" | "tone" | "stereo" | "hlg" | "pq" | "broken" | "picture";

/** File names, relative to the project directory. */
export const MEDIA_FILES: Record<MediaName, string> = {
  /** 160x90, 30 fps, 2 s H.264: red, lime, blue, white for 0.5 s each; a 440 Hz tone on its audio track. */
  colours: "media/colours.mp4",
  /** 160x90, 30 fps, 1 s H.264 without audio: yellow then magenta. */
  other: "media/other.mp4",
  /** 1 s of an 880 Hz tone, 48 kHz mono PCM. */
  tone: "media/tone.wav",
  /** 1 s, 48 kHz stereo PCM: a 440 Hz tone on the left at the tone's level, 660 Hz on the right 6 dB below. */
  stereo: "media/stereo.wav",
  /** 160x90, 30 fps, 1 s HEVC 10-bit, BT.2020, HLG (arib-std-b67). */
  hlg: "media/hlg.mp4",
  /** The same tagged PQ (smpte2084). */
  pq: "media/pq.mp4",
  /** A text file with a video's name. */
  broken: "media/broken.mp4",
  /** An 80x45 PNG, all orange (#ff8000). */
  picture: "media/picture.png",
};

function colourSegments(colours: readonly string[], segment: number): string {
  const inputs = colours.map((colour, i) => `color=c=${colour}:s=160x90:r=30:d=${segment}[c${i}]`);
  const labels = colours.map((_, i) => `[c${i}]`).join("");
  return `${inputs.join(";")};${labels}concat=n=${colours.length}:v=1:a=0,format=yuv420p[v]`;
}

/** One keyframe a second: a seek to data-media-start must decode from the keyframe before it to be exact. */
const H264 = ["-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p", "-r", "30"];

async function generate(name: MediaName, file: string): Promise<void> {
  switch (name) {
    case "colours":
      return ffmpeg([
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:sample_rate=48000:duration=2",
        "-filter_complex",
        colourSegments(["red", "lime", "blue", "white"], CLIP_SEGMENT),
        "-map",
        "[v]",
        "-map",
        "0:a",
        ...H264,
        "-c:a",
        "aac",
        "-b:a",
        "128k",
        "-t",
        "2",
        "-shortest",
        file,
      ]);
    case "other":
      return ffmpeg(["-filter_complex", colourSegments(["yellow", "magenta"], 0.5), "-map", "[v]", ...H264, "-t", "1", file]);
    case "tone":
      return ffmpeg(["-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=1", "-c:a", "pcm_s16le", file]);
    case "stereo":
      return ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.125*sin(2*PI*440*t)|0.0625*sin(2*PI*660*t):s=48000:d=1:c=stereo", "-c:a", "pcm_s16le", file]);
    case "hlg":
    case "pq": {
      const transfer = name === "hlg" ? "arib-std-b67" : "smpte2084";
      return ffmpeg([
        "-f",
        "lavfi",
        "-i",
        "color=c=0x808080:s=160x90:r=30:d=1",
        "-c:v",
        "libx265",
        "-preset",
        "ultrafast",
        "-pix_fmt",
        "yuv420p10le",
        "-x265-params",
        `log-level=error:colorprim=bt2020:transfer=${transfer}:colormatrix=bt2020nc`,
        "-color_primaries",
        "bt2020",
        "-color_trc",
        transfer,
        "-colorspace",
        "bt2020nc",
        "-tag:v",
        "hvc1",
        file,
      ]);
    }
    case "picture":
      return ffmpeg(["-f", "lavfi", "-i", "color=c=0xff8000:s=80x45", "-frames:v", "1", file]);
    case "broken":
      return writeFile(file, "this is not a video, only text with a video's name\n");
  }
}

/** Generates `names` (default: all) under `dir`; returns their absolute paths. */
export async function generateMedia(dir: string, names: readonly MediaName[] = Object.keys(MEDIA_FILES) as MediaName[]): Promise<Record<MediaName, string>> {
  const paths = {} as Record<MediaName, string>;
  await Promise.all(
    names.map(async (name) => {
      const file = join(dir, MEDIA_FILES[name]);
      await mkdir(dirname(file), { recursive: true });
      await generate(name, file);
      paths[name] = file;
    }),
  );
  return paths;
}

export interface CacheDir {
  dir: string;
  env: { COMPOSE_CACHE_DIR: string };
  remove(): Promise<void>;
}

/** A temporary $COMPOSE_CACHE_DIR, so renders never read or fill the user's cache. */
export async function createCacheDir(): Promise<CacheDir> {
  const dir = await mkdtemp(join(tmpdir(), "compose-test-cache-"));
  return { dir, env: { COMPOSE_CACHE_DIR: dir }, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The colours the media tests draw or generate, by name. */
export const PALETTE: Record<string, readonly number[]> = {
  ...CLIP_COLOURS,
  ...OTHER_COLOURS,
  black: [0, 0, 0],
  grey: [128, 128, 128],
  orange: [255, 128, 0],
};

/**
 * The name of the palette colour a pixel shows (every channel within `tolerance`), else its
 * `rgb(...)`: comparing names across many frames gives readable failures.
 */
export function colourName(frame: Frame, x: number, y: number, tolerance = 40): string {
  const rgb = pixel(frame, x, y).slice(0, 3);
  for (const [name, colour] of Object.entries(PALETTE)) {
    if (colourDistance(rgb, colour) <= tolerance) return name;
  }
  return `rgb(${rgb.join(",")})`;
}

export interface AudioLevel {
  /** Mean level in dBFS (volumedetect's mean_volume); about -91 for digital silence. */
  mean: number;
  /** Peak level in dBFS. */
  max: number;
}

/**
 * What `filter` (an audio analysis filter such as volumedetect) printed for each window [start,
 * end] (seconds) of a file's first audio stream, in window order, from one ffmpeg run. The stream
 * is decoded once from its beginning, split, and each copy cut with atrim, so times are exact
 * sample times even in raw AAC, which has no index to seek by.
 */
async function windowReports(file: string, windows: ReadonlyArray<readonly [number, number]>, filter: string): Promise<string[]> {
  const copies = windows.map((_, i) => `[w${i}]`).join("");
  const graph = [`[0:a:0]asplit=${windows.length}${copies}`, ...windows.map(([start, end], i) => `[w${i}]atrim=start=${start}:end=${end},${filter}[m${i}]`)];
  const { stderr } = await execFileAsync("ffmpeg", [
    "-hide_banner",
    "-nostats",
    "-i",
    file,
    "-filter_complex",
    graph.join(";"),
    ...windows.flatMap((_, i) => ["-map", `[m${i}]`]),
    "-f",
    "null",
    "-",
  ]);
  // Each instance prints as Parsed_<filter>_<its place in the graph>, which follows the windows' order.
  const name = filter.split("=")[0]!;
  const reports = new Map<number, string>();
  for (const [, place, line] of stderr.matchAll(new RegExp(`^\\[Parsed_${name}_(\\d+) @ [^\\]]*\\] (.*)$`, "gm"))) {
    reports.set(Number(place), `${reports.get(Number(place)) ?? ""}${line}\n`);
  }
  const ordered = [...reports.keys()].sort((a, b) => a - b).map((place) => reports.get(place)!);
  if (ordered.length !== windows.length) throw new Error(`${name} reported ${ordered.length} of ${windows.length} windows of ${file}: ${stderr}`);
  return ordered;
}

const decibels = (text: string) => (text === "-inf" ? -Infinity : Number(text));

/** The level of each window [start, end] (seconds) of a file's first audio stream, measured with ffmpeg's volumedetect. */
export async function audioLevels(file: string, windows: ReadonlyArray<readonly [number, number]>): Promise<AudioLevel[]> {
  const reports = await windowReports(file, windows, "volumedetect");
  return reports.map((report, i) => {
    const value = (name: string) => {
      const match = new RegExp(`${name}: (-?[\\d.]+|-inf) dB`).exec(report);
      if (!match) throw new Error(`no ${name} in ffmpeg's output for ${file} [${windows[i]!.join(", ")}]: ${report}`);
      return decibels(match[1]!);
    };
    return { mean: value("mean_volume"), max: value("max_volume") };
  });
}

/** The level of a file's first audio stream between `start` and `end` seconds (audioLevels). */
export async function audioLevel(file: string, start: number, end: number): Promise<AudioLevel> {
  return (await audioLevels(file, [[start, end]]))[0]!;
}

/**
 * The RMS level in dBFS of each channel of a file's first audio stream in each window [start, end]
 * (seconds), measured with ffmpeg's astats; -Infinity for digital silence.
 */
export async function windowChannelLevels(file: string, windows: ReadonlyArray<readonly [number, number]>): Promise<number[][]> {
  const reports = await windowReports(file, windows, "astats=measure_overall=none:measure_perchannel=RMS_level");
  return reports.map((report, i) => {
    const levels = [...report.matchAll(/RMS level dB: (-?[\d.]+|-inf)/g)].map((match) => decibels(match[1]!));
    if (levels.length === 0) throw new Error(`no RMS level in ffmpeg's output for ${file} [${windows[i]!.join(", ")}]: ${report}`);
    return levels;
  });
}

/** Each channel's RMS level of a file's first audio stream between `start` and `end` seconds (windowChannelLevels). */
export async function channelLevels(file: string, start: number, end: number): Promise<number[]> {
  return (await windowChannelLevels(file, [[start, end]]))[0]!;
}

/** Seconds of audio in a file's first audio stream, by decoding it and counting samples. */
export async function decodedAudioSeconds(file: string): Promise<number> {
  const { stdout } = await execFileAsync(
    "ffmpeg",
    ["-hide_banner", "-loglevel", "error", "-i", file, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "s16le", "pipe:1"],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.length / 2 / 48_000;
}

/** One render of a media test file: its composition, output path and extra flags. */
export interface MediaRenderSpec {
  file: string;
  output: string;
  flags: readonly string[];
}

export interface MediaRenders<Name extends string> {
  project: TempProject;
  results: Record<Name, CliResult>;
  /** The output path of a render, after checking that it succeeded without a warning. */
  outputOf(name: Name): string;
  remove(): Promise<void>;
}

export interface MediaProject {
  project: TempProject;
  /** The project's own $COMPOSE_CACHE_DIR. */
  cache: CacheDir;
  remove(): Promise<void>;
}

/** A project of `files` with the generated `media`, and a cache of its own for its renders. */
export async function createMediaProject(files: Record<string, string>, media: readonly MediaName[], prefix: string): Promise<MediaProject> {
  const project = await createProject(files, { prefix });
  const cache = await createCacheDir();
  await generateMedia(project.dir, media);
  return {
    project,
    cache,
    async remove() {
      await project.remove();
      await cache.remove();
    },
  };
}

/**
 * Makes a project of `files` with the generated `media`, renders each spec once (two at a time,
 * one worker each, quietly, with a cache of its own) and keeps the results for the tests.
 */
export async function renderMediaSet<Name extends string>(
  files: Record<string, string>,
  media: readonly MediaName[],
  specs: Record<Name, MediaRenderSpec>,
  prefix: string,
): Promise<MediaRenders<Name>> {
  const { project, cache, remove } = await createMediaProject(files, media, prefix);
  const results = {} as Record<Name, CliResult>;
  const names = Object.keys(specs) as Name[];
  await limited(
    2,
    names.map((name) => async () => {
      const { file, output, flags } = specs[name];
      results[name] = await render([project.path(file), "--quiet", "--workers", "1", ...flags, "--output", project.path(output)], { env: cache.env });
    }),
  );
  return {
    project,
    results,
    outputOf(name) {
      expect(results[name].stderr, `${name} stderr`).toBe("");
      expect(results[name].code, `${name} exit code`).toBe(0);
      return project.path(specs[name].output);
    },
    remove,
  };
}
