/**
 * The audio mix: every audible <audio> / <video data-has-audio="true"> is mixed at its start,
 * trimmed to its duration, at its volume; a video without data-has-audio and a muted element add
 * nothing; mp4 and mov carry AAC, webm Opus, png-sequence writes audio.aac beside the frames; a
 * composition with nothing audible has no audio stream (see video.test.ts); audio and video last as
 * long as each other.
 *
 * Levels are measured with ffmpeg's volumedetect over windows that keep 50 ms or more away from
 * every expected edge (raw AAC, the png-sequence sidecar, starts 21 ms late: see the last test).
 */
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffprobe, type ProbeResult } from "../support/media.js";
import { compositionHtml } from "../support/project.js";
import { audioLevel, decodedAudioSeconds, renderMediaSet, type AudioLevel, type MediaRenderSpec, type MediaRenders } from "../support/test-media.js";

const FPS = 30;
/** Peak level below which a window counts as silent (digital silence is about -91 dBFS). */
const SILENT_MAX_DB = -60;
/** Mean level above which a window counts as sounding (the generated tones are about -21 dBFS). */
const SOUNDING_MEAN_DB = -35;

const BOX = `<div style="position: absolute; left: 100px; top: 60px; width: 120px; height: 60px; background: #ff0000"></div>`;
const HIDDEN_VIDEO = "position: absolute; left: 0; top: 0; width: 80px; height: 45px";

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
  /** The tone from 0, faded out by a script that sets its volume from 1 at 0 s to 0 at 1 s. */
  "fade.html": compositionHtml({
    id: "fade",
    duration: 1,
    backdrop: "#000000",
    body: `${BOX}<audio id="tone" src="media/tone.wav" data-start="0"></audio>`,
    after: `<script>
      const tone = document.getElementById("tone");
      __compose.onSeek((t) => { tone.volume = Math.max(0, 1 - t); });
    </script>`,
  }),
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
  fade: "mp4",
  fadeTwoWorkers: "mp4",
} as const;
type RenderName = keyof typeof FORMATS;
const RENDERS: Record<RenderName, MediaRenderSpec> = {
  mix: { file: "mix.html", output: "out/mix-frames", flags: ["--format", FORMATS.mix] },
  videoSound: { file: "video-sound.html", output: "out/video-sound.mp4", flags: ["--format", FORMATS.videoSound] },
  mov: { file: "short.html", output: "out/short.mov", flags: ["--format", FORMATS.mov] },
  webm: { file: "short.html", output: "out/short.webm", flags: ["--format", FORMATS.webm] },
  fade: { file: "fade.html", output: "out/fade.mp4", flags: [] },
  fadeTwoWorkers: { file: "fade.html", output: "out/fade-w2.mp4", flags: ["--workers", "2"] },
};

let renders: MediaRenders<RenderName>;

beforeAll(async () => {
  renders = await renderMediaSet(FILES, ["colours", "tone"], RENDERS, "compose-media-audio-");
});
afterAll(() => renders?.remove());

const outputOf = (name: RenderName) => renders.outputOf(name);

/** The file holding a render's audio: the output itself, or png-sequence's sidecar. */
function audioFileOf(name: RenderName): string {
  const output = outputOf(name);
  return FORMATS[name] === "png-sequence" ? `${output}/audio.aac` : output;
}

/** The level of each named window [from, to] (seconds) of a file's audio. */
async function levels<Name extends string>(file: string, windows: Record<Name, [number, number]>): Promise<Record<Name, AudioLevel>> {
  const names = Object.keys(windows) as Name[];
  const measured = await Promise.all(names.map((name) => audioLevel(file, windows[name][0], windows[name][1])));
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

describe("volume over time", () => {
  // Windows 0.2 s wide centred on 0.15, 0.45 and 0.75 s: a linear fade from 1 to 0 over 1 s
  // averages gains of about 0.85, 0.55 and 0.25 there (RMS of the ramp within each window).
  const WINDOWS = { early: [0.05, 0.25], middle: [0.35, 0.55], late: [0.65, 0.85] } as Record<string, [number, number]>;
  const expectedDb = (from: number, to: number) => {
    const rms = (a: number, b: number) => Math.sqrt((a * a + a * b + b * b) / 3);
    return 20 * Math.log10(rms(1 - from, 1 - to));
  };

  it.each(["fade", "fadeTwoWorkers"] as const)("a volume that a script lowers frame by frame fades the mix out smoothly (%s)", async (name) => {
    const measured = await levels(audioFileOf(name), WINDOWS);
    const early = measured.early!.mean;
    for (const [window, [from, to]] of Object.entries(WINDOWS)) {
      const drop = measured[window]!.mean - early;
      const expected = expectedDb(from, to) - expectedDb(0.05, 0.25);
      expect(Math.abs(drop - expected), `${window}: ${drop.toFixed(2)} dB below early, expected ${expected.toFixed(2)}`).toBeLessThan(1);
    }
    // The end of a fade to 0 is silent.
    expect((await audioLevel(audioFileOf(name), 0.97, 1)).max).toBeLessThan(-30);
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
    const video = FORMATS[name] === "png-sequence"
      ? (await readdir(outputOf(name))).filter((entry) => entry.endsWith(".png")).length / FPS
      : Number((await ffprobe(file, { countFrames: true })).streams.find((stream) => stream.codec_type === "video")!.nb_read_frames) / FPS;
    expect(video).toBeCloseTo(seconds, 5);
    // Raw AAC (ADTS) cannot record the encoder's delay: a decoder plays its 1024 priming samples
    // too, which mp4, mov and webm trim. They are not the render's audio.
    const priming = FORMATS[name] === "png-sequence" ? 1024 / 48_000 : 0;
    expect(Math.abs((await decodedAudioSeconds(file)) - priming - video)).toBeLessThanOrEqual(1 / FPS);
  });
});
