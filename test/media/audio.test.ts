/**
 * The audio mix: every audible <audio> / <video data-has-audio="true"> is mixed at its start,
 * trimmed to its duration, at its volume; a video without data-has-audio and a muted element add
 * nothing; mp4 and mov carry AAC, webm Opus, png-sequence writes audio.aac beside the frames; a
 * composition with nothing audible has no audio stream (see video.test.ts); audio and video last as
 * long as each other.
 *
 * Levels are measured with ffmpeg's volumedetect, per channel with astats, over windows that keep
 * 50 ms or more away from every expected edge (raw AAC, the png-sequence sidecar, starts 21 ms
 * late: see the last test).
 */
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { limited, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { ffprobe, type ProbeResult } from "../support/media.js";
import { compositionHtml } from "../support/project.js";
import { renderInProcess, type InProcessRender } from "../support/render-in-process.js";
import { validateRenderOptions } from "@compose/core";
import { assembleChunks, planChunks, renderRange } from "@compose/renderer";
import {
  audioLevel,
  audioLevels,
  channelLevels,
  createMediaProject,
  decodedAudioSeconds,
  MEDIA_FILES,
  type AudioLevel,
  type MediaProject,
  windowChannelLevels,
} from "../support/test-media.js";

const FPS = 30;
/** Peak level below which a window counts as silent (digital silence is about -91 dBFS). */
const SILENT_MAX_DB = -60;
/** Mean level above which a window counts as sounding (the generated tones are about -21 dBFS). */
const SOUNDING_MEAN_DB = -35;

const BOX = `<div style="position: absolute; left: 100px; top: 60px; width: 120px; height: 60px; background: #ff0000"></div>`;
const HIDDEN_VIDEO = "position: absolute; left: 0; top: 0; width: 80px; height: 45px";

/** Full volume until FADE_FROM, then down in a straight line to 0 at FADE_TO (seconds). */
const FADE_FROM = 0.3;
const FADE_TO = 0.6;

/**
 * A source from 0 for the whole second at `dataVolume`, faded out by a script that sets the
 * element's volume at every seek: 1 until FADE_FROM, then down to 0 at FADE_TO.
 */
function fadeHtml(id: string, source: string, dataVolume: number): string {
  return compositionHtml({
    id,
    duration: 1,
    backdrop: "#000000",
    body: `${BOX}<audio id="sound" src="${source}" data-start="0" data-volume="${dataVolume}"></audio>`,
    after: `<script>
      const sound = document.getElementById("sound");
      __compose.onSeek((t) => { sound.volume = Math.min(1, Math.max(0, (${FADE_TO} - t) / ${FADE_TO - FADE_FROM})); });
    </script>`,
  });
}

const FILES: Record<string, string> = {
  /** A 1 s tone at 0.3 s cut to 0.6 s, and the same tone at 1.2 s for its natural 1 s at volume 0.5. */
  "mix.html": compositionHtml({
    id: "mix",
    duration: 2.5,
    backdrop: "#000000",
    body: `${BOX}
<audio id="first" src="media/tone.wav" data-start="0.3" data-duration="0.6"></audio>
<audio id="second" src="media/tone.wav" data-start="1.2" data-volume="0.5"></audio>`,
  }),
  /**
   * The clip's 440 Hz track: heard with data-has-audio, not without it, not when muted. The
   * durations differ so that no two videos share frames (see video.test.ts, "same-clip").
   */
  "video-sound.html": compositionHtml({
    id: "video-sound",
    duration: 2,
    backdrop: "#000000",
    body: `
<video id="heard" src="media/colours.mp4" data-start="0" data-duration="0.6" data-has-audio="true" style="${HIDDEN_VIDEO}"></video>
<video id="undeclared" src="media/colours.mp4" data-start="0.7" data-duration="0.65" style="${HIDDEN_VIDEO}"></video>
<video id="muted-video" src="media/colours.mp4" data-start="1.4" data-duration="0.55" data-has-audio="true" muted style="${HIDDEN_VIDEO}"></video>
<audio id="muted-audio" src="media/tone.wav" data-start="0.7" muted></audio>`,
  }),
  /** The mono tone, and then the stereo one, each for 0.3 s at volume 1; then the mono tone at data-volume 0.5. */
  "levels.html": compositionHtml({
    id: "levels",
    duration: 1,
    backdrop: "#000000",
    body: `${BOX}
<audio id="mono" src="media/tone.wav" data-start="0" data-duration="0.3"></audio>
<audio id="stereo" src="media/stereo.wav" data-start="0.35" data-duration="0.3"></audio>
<audio id="half" src="media/tone.wav" data-start="0.7" data-duration="0.3" data-volume="0.5"></audio>`,
  }),
  "fade.html": fadeHtml("fade", "media/tone.wav", 1),
  "fade-stereo.html": fadeHtml("fade-stereo", "media/stereo.wav", 0.5),
  /** The tone from 0.25 s; its natural end (1.25 s) is past the composition's 1 s. */
  "short.html": compositionHtml({
    id: "short",
    duration: 1,
    body: `${BOX}<audio id="tone" src="media/tone.wav" data-start="0.25"></audio>`,
  }),
};

/** Each composition is rendered once; the formats are spread over them. */
const FORMATS = {
  mix: "png-sequence",
  videoSound: "mp4",
  mov: "mov",
  webm: "webm",
  levels: "mp4",
  fade: "mp4",
  fadeTwoWorkers: "mp4",
  fadeStereo: "mp4",
  fadeStereoTwoWorkers: "mp4",
} as const;
type RenderName = keyof typeof FORMATS;
const RENDERS: Record<RenderName, { file: string; output: string; workers: number }> = {
  mix: { file: "mix.html", output: "out/mix-frames", workers: 1 },
  videoSound: { file: "video-sound.html", output: "out/video-sound.mp4", workers: 1 },
  mov: { file: "short.html", output: "out/short.mov", workers: 1 },
  webm: { file: "short.html", output: "out/short.webm", workers: 1 },
  levels: { file: "levels.html", output: "out/levels.mp4", workers: 1 },
  fade: { file: "fade.html", output: "out/fade.mp4", workers: 1 },
  fadeTwoWorkers: { file: "fade.html", output: "out/fade-w2.mp4", workers: 2 },
  fadeStereo: { file: "fade-stereo.html", output: "out/fade-stereo.mp4", workers: 1 },
  fadeStereoTwoWorkers: { file: "fade-stereo.html", output: "out/fade-stereo-w2.mp4", workers: 2 },
};

/** Frames per chunk of a distributed render: its two chunks are split inside the fade (frames 9 to 18). */
const CHUNK_SIZE = 15;

/** Renders `file` as a distributed render does: planned once with its audio mixed, each chunk's range captured from the plan, assembled. */
async function chunkedRender(file: string, output: string): Promise<string> {
  const validated = validateRenderOptions({ format: "mp4", workers: 1 });
  if (!validated.ok) throw new Error(validated.problem.problem);
  const { options } = validated;
  const composition = media.project.path(file);
  const root = media.project.dir;
  const { plan } = await planChunks({ composition, options, chunkSize: CHUNK_SIZE, root, workDir: `${output}.chunks`, output });
  for (const index of plan.ranges.keys()) await renderRange({ composition, options, plan, root, index });
  return (await assembleChunks({ plan, root })).output;
}

let media: MediaProject;
const results = {} as Record<RenderName, InProcessRender>;
const chunked: Partial<Record<"fade" | "fadeStereo", string>> = {};

beforeAll(async () => {
  media = await createMediaProject(FILES, ["colours", "tone", "stereo"], "compose-media-audio-");
  // The renders run in this process: its cache, until the file ends.
  vi.stubEnv("COMPOSE_CACHE_DIR", media.cache.dir);
  await limited(
    2,
    (Object.keys(RENDERS) as RenderName[]).map((name) => async () => {
      const { file, output, workers } = RENDERS[name];
      results[name] = await renderInProcess({
        composition: media.project.path(file),
        output: media.project.path(output),
        options: { format: FORMATS[name], workers },
      });
    }),
  );
  chunked.fade = await chunkedRender("fade.html", "out/fade-chunked.mp4");
  chunked.fadeStereo = await chunkedRender("fade-stereo.html", "out/fade-stereo-chunked.mp4");
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(async () => {
  vi.unstubAllEnvs();
  await media?.remove();
});

/** The output path of a render, after checking that it succeeded without a warning. */
function outputOf(name: RenderName): string {
  expect(results[name].error, `${name} error`).toBeUndefined();
  expect(results[name].warnings, `${name} warnings`).toEqual([]);
  return media.project.path(RENDERS[name].output);
}

/** The file holding a render's audio: the output itself, or png-sequence's sidecar. */
function audioFileOf(name: RenderName): string {
  const output = outputOf(name);
  return FORMATS[name] === "png-sequence" ? `${output}/audio.aac` : output;
}

/** The level of each named window [from, to] (seconds) of a file's audio. */
async function levels<Name extends string>(file: string, windows: Record<Name, [number, number]>): Promise<Record<Name, AudioLevel>> {
  const names = Object.keys(windows) as Name[];
  const measured = await audioLevels(
    file,
    names.map((name) => windows[name]),
  );
  return Object.fromEntries(names.map((name, i) => [name, measured[i]!])) as Record<Name, AudioLevel>;
}

function audioStreams(probe: ProbeResult) {
  return probe.streams.filter((stream) => stream.codec_type === "audio");
}

describe("mixing <audio> elements", () => {
  it("sounds only inside each element's window: silence before the start, after a data-duration cut and after the end", async () => {
    const measured = await levels(audioFileOf("mix"), {
      beforeFirst: [0, 0.25],
      first: [0.35, 0.85],
      afterCut: [1.0, 1.15],
      second: [1.25, 2.15],
      afterSecond: [2.3, 2.5],
    });
    const verdict = Object.fromEntries(
      Object.entries(measured).map(([name, level]) => [
        name,
        level.max < SILENT_MAX_DB ? "silent" : level.mean > SOUNDING_MEAN_DB ? "sounding" : `unclear (${JSON.stringify(level)})`,
      ]),
    );
    expect(verdict).toEqual({ beforeFirst: "silent", first: "sounding", afterCut: "silent", second: "sounding", afterSecond: "silent" });
  });

  it("data-volume 0.5 is about 6 dB below volume 1", async () => {
    const { first, second } = await levels(audioFileOf("mix"), { first: [0.35, 0.85], second: [1.25, 2.15] });
    expect(first.mean - second.mean).toBeGreaterThan(5);
    expect(first.mean - second.mean).toBeLessThan(7);
  });
});

/**
 * Levels as the page plays them, per channel, against the source's own: a mono source at its level
 * in both channels, a stereo one unchanged, data-volume exact, and a volume that changes over time
 * changing only the frames where it changes, however the frames are split.
 */
describe("levels as the page plays them", () => {
  /** Each channel's level in the source, over the whole of it (measured once). */
  const measuredSources: Partial<Record<"tone" | "stereo", Promise<number[]>>> = {};
  const sourceLevels = (source: "tone" | "stereo") => (measuredSources[source] ??= channelLevels(media.project.path(MEDIA_FILES[source]), 0, 1));
  const db = (gain: number) => 20 * Math.log10(gain);
  /** The element's volume at t, as the fade script sets it. */
  const fadeGain = (t: number) => Math.min(1, Math.max(0, (FADE_TO - t) / (FADE_TO - FADE_FROM)));
  /** The RMS gain of a straight-line fade over [from, to]. */
  const rampGain = (from: number, to: number) => {
    const [a, b] = [fadeGain(from), fadeGain(to)];
    return Math.sqrt((a * a + a * b + b * b) / 3);
  };
  /** Windows 50 ms or more away from every edge: before, during and after the fade. */
  const FADE_WINDOWS: Record<string, [number, number]> = { before: [0.05, 0.25], during: [0.35, 0.55], after: [0.65, 0.95] };

  /** A window of a file's audio and what each of its channels should measure: the source's channel, mono in both, plus `gainDb`. */
  interface Expected {
    what: string;
    window: [number, number];
    source: number[];
    gainDb: number;
  }

  /** Each window's channels within 1 dB of what they should be, all windows measured in one pass. */
  async function expectWithin1Db(file: string, windows: Expected[]) {
    const measuredWindows = await windowChannelLevels(
      file,
      windows.map(({ window }) => window),
    );
    windows.forEach(({ what, source, gainDb }, i) => {
      const measured = measuredWindows[i]!.map((level) => Number(level.toFixed(2)));
      const expected = measured.map((_, channel) => Number(((source[channel] ?? source[0]!) + gainDb).toFixed(2)));
      expect(measured, what).toHaveLength(2);
      measured.forEach((level, channel) =>
        expect(Math.abs(level - expected[channel]!), `${what}, channel ${channel}: ${level} dB, expected ${expected[channel]}`).toBeLessThan(1),
      );
    });
  }

  it("a mono source is heard at its own level in both channels, a stereo one unchanged, data-volume 0.5 exactly 6 dB down", async () => {
    const file = audioFileOf("levels");
    const [mono, stereo] = [await sourceLevels("tone"), await sourceLevels("stereo")];
    await expectWithin1Db(file, [
      { what: "mono at volume 1", window: [0.05, 0.25], source: mono, gainDb: 0 },
      { what: "stereo at volume 1", window: [0.4, 0.6], source: stereo, gainDb: 0 },
      { what: "mono at data-volume 0.5", window: [0.75, 0.95], source: mono, gainDb: db(0.5) },
    ]);
  });

  const FADES = {
    "mono, one worker": ["tone", 1, () => audioFileOf("fade")],
    "mono, two workers": ["tone", 1, () => audioFileOf("fadeTwoWorkers")],
    "mono, in chunks": ["tone", 1, () => chunked.fade!],
    "stereo at data-volume 0.5, one worker": ["stereo", 0.5, () => audioFileOf("fadeStereo")],
    "stereo at data-volume 0.5, two workers": ["stereo", 0.5, () => audioFileOf("fadeStereoTwoWorkers")],
    "stereo at data-volume 0.5, in chunks": ["stereo", 0.5, () => chunked.fadeStereo!],
  } as const;

  it.each(Object.keys(FADES) as Array<keyof typeof FADES>)("a volume faded by a script changes only the frames where it changes (%s)", async (name) => {
    const [source, dataVolume, fileOf] = FADES[name];
    const levels = await sourceLevels(source);
    const file = fileOf();
    await expectWithin1Db(file, [
      { what: "before the fade", window: FADE_WINDOWS.before!, source: levels, gainDb: db(dataVolume) },
      { what: "during the fade", window: FADE_WINDOWS.during!, source: levels, gainDb: db(dataVolume * rampGain(...FADE_WINDOWS.during!)) },
    ]);
    const [from, to] = FADE_WINDOWS.after!;
    expect((await audioLevel(file, from, to)).max, "after the fade").toBeLessThan(SILENT_MAX_DB);
  });
});

describe("the sound of <video> elements", () => {
  it("a video with data-has-audio is heard; one without it, and a muted one (and a muted <audio>), add nothing", async () => {
    const measured = await levels(audioFileOf("videoSound"), {
      heard: [0.05, 0.55],
      undeclaredAndMutedAudio: [0.75, 1.3],
      mutedVideo: [1.45, 1.9],
    });
    expect(measured.heard.mean).toBeGreaterThan(SOUNDING_MEAN_DB);
    expect(measured.undeclaredAndMutedAudio.max).toBeLessThan(SILENT_MAX_DB);
    expect(measured.mutedVideo.max).toBeLessThan(SILENT_MAX_DB);
  });
});

describe("audio per output format", () => {
  it("mp4 and mov carry AAC, webm Opus, png-sequence an AAC audio.aac beside the frames", async () => {
    const codecs = await Promise.all(
      (["videoSound", "mov", "webm", "mix"] as const).map(async (name) => audioStreams(await ffprobe(audioFileOf(name))).map((stream) => stream.codec_name)),
    );
    expect(codecs).toEqual([["aac"], ["aac"], ["opus"], ["aac"]]);
    const names = await readdir(outputOf("mix"));
    expect(names.filter((name) => !/^frame_\d{6}\.png$/.test(name))).toEqual(["audio.aac"]);
    expect(names.filter((name) => name.endsWith(".png"))).toHaveLength(75);
  });

  it.each(["mov", "webm"] as const)("%s: the tone is placed at 0.25 s", async (name) => {
    const measured = await levels(audioFileOf(name), { before: [0, 0.2], during: [0.3, 0.95] });
    expect(measured.before.max).toBeLessThan(SILENT_MAX_DB);
    expect(measured.during.mean).toBeGreaterThan(SOUNDING_MEAN_DB);
  });

  it.each([
    ["mp4", "videoSound", 2],
    ["mov", "mov", 1],
    ["webm", "webm", 1],
    ["png-sequence", "mix", 2.5],
  ] as const)("%s: the audio lasts as long as the video, within one frame", async (_format, name, seconds) => {
    const file = audioFileOf(name);
    const video =
      FORMATS[name] === "png-sequence"
        ? (await readdir(outputOf(name))).filter((entry) => entry.endsWith(".png")).length / FPS
        : Number((await ffprobe(file, { countFrames: true })).streams.find((stream) => stream.codec_type === "video")!.nb_read_frames) / FPS;
    expect(video).toBeCloseTo(seconds, 5);
    // Raw AAC (ADTS) cannot record the encoder's delay: a decoder plays its 1024 priming samples
    // too, which mp4, mov and webm trim. They are not the render's audio.
    const priming = FORMATS[name] === "png-sequence" ? 1024 / 48_000 : 0;
    expect(Math.abs((await decodedAudioSeconds(file)) - priming - video)).toBeLessThanOrEqual(1 / FPS);
  });
});
