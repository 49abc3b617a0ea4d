/// <reference lib="dom" />
/**
 * Media in compose preview as render makes them (real Chromium, real ffmpeg): a video shows the
 * frames render extracts for each frame time, not its own playback, and audio plays in step with
 * the frames while playing, at the levels render mixes it at.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG } from "pngjs";
import { render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { channelLevels, CLIP_COLOURS, createCacheDir, generateMedia, MEDIA_FILES } from "../support/test-media.js";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/** The four-colour clip from 0.5 s into it (lime, then blue from 0.5 s), and a tone from 0.2 s faded at 0.5 s. */
const INDEX_HTML = compositionHtml({
  id: "media",
  duration: 1,
  css: `#clip { position: absolute; left: 0; top: 0; width: 160px; height: 90px; }`,
  body: `<video id="clip" src="${MEDIA_FILES.colours}" data-start="0" data-media-start="0.5" muted></video>
<audio id="tone" src="${MEDIA_FILES.tone}" data-start="0.2" data-duration="0.8" data-volume="0.8"></audio>`,
  // Fades the tone to a quarter from 0.5 s, as a script's volume change that render mixes.
  after: `<script>__compose.onSeek((t) => { document.getElementById("tone").volume = t < 0.5 ? 1 : 0.25; });</script>`,
});

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
let preview: PreviewSession;
/** The same composition rendered, for the levels its mix has. */
let rendered: string;

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML }, { prefix: "compose-preview-media-" });
  await generateMedia(project.dir, ["colours", "tone"]);
  cache = await createCacheDir();
  rendered = project.path("out.mp4");
  const [run, opened] = await Promise.all([
    render([project.path("index.html"), "--quiet", "--workers", "1", "--output", rendered], { env: cache.env }),
    openPreview(project.dir, { env: cache.env }),
  ]);
  preview = opened;
  expect(run.stderr, "render's stderr").toBe("");
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
  await cache?.remove();
});

async function videoColour(): Promise<number[]> {
  // The render written into the project reloads the composition frame once, whenever its file
  // appears: a frame replaced mid-screenshot is taken again once the new one has settled.
  for (let attempt = 1; ; attempt++) {
    try {
      const shot = PNG.sync.read(await preview.page.locator("#composition").screenshot());
      const i = (45 * shot.width + 80) * 4;
      return [...shot.data.subarray(i, i + 3)];
    } catch (error) {
      if (attempt === 3) throw error;
      await preview.settled();
    }
  }
}

/**
 * Presses Pause while the play runs. On a loaded machine the play may have reached the last frame
 * and stopped by itself first, and pressing the button then would start it again: the button is
 * read and pressed in one turn of the page, so the play cannot end in between.
 */
async function pause(): Promise<void> {
  await preview.page.evaluate(() => {
    const play = document.getElementById("play")!;
    if (play.getAttribute("aria-pressed") === "true") play.click();
  });
}

function near(actual: number[], expected: readonly number[]): boolean {
  return actual.every((value, c) => Math.abs(value - expected[c]!) <= 40);
}

describe("media in compose preview", () => {
  it("shows a video's extracted frame for each frame time", async () => {
    const poster = await preview.inComposition<string>(`(doc) => doc.getElementById("clip").poster`);
    expect(poster).toMatch(/\/__compose\/frames\/.+\.jpg$/);
    expect(near(await videoColour(), CLIP_COLOURS.lime), "frame 0: 0.5 s into the clip, lime").toBe(true);
    await preview.scrubTo(20);
    expect(near(await videoColour(), CLIP_COLOURS.blue), "frame 20: 1.17 s into the clip, blue").toBe(true);
    await preview.scrubTo(5);
    expect(near(await videoColour(), CLIP_COLOURS.lime), "frame 5: back to lime").toBe(true);
  });

  it("plays audio in step with the frames while playing, at its volume over time, and stops it with them", async () => {
    await preview.scrubTo(0);
    await preview.page.click("#play");
    const playing = await preview.page.waitForFunction(
      () => {
        const audio = document.querySelector<HTMLAudioElement>("#sounds audio");
        const frame = Number(document.getElementById("stage")!.dataset.shownFrame);
        return audio && frame >= 10 && frame <= 13 && { paused: audio.paused, time: audio.currentTime, volume: audio.volume, frame };
      },
      undefined,
      { timeout: 30_000, polling: 10 },
    );
    const before = (await playing.jsonValue()) as { volume: number };
    // Read as the frame shows: the play may end at the last frame soon after.
    const later = await preview.page.waitForFunction(
      () => {
        const audio = document.querySelector<HTMLAudioElement>("#sounds audio")!;
        const frame = Number(document.getElementById("stage")!.dataset.shownFrame);
        return frame >= 17 && { paused: audio.paused, time: audio.currentTime, src: audio.src, volume: audio.volume, frame };
      },
      undefined,
      { timeout: 30_000 },
    );
    const heard = (await later.jsonValue()) as { paused: boolean; time: number; src: string; volume: number; frame: number };
    // data-volume 0.8 times the element's volume: 1 before 0.5 s, 0.25 after.
    expect(before.volume).toBeCloseTo(0.8, 5);
    expect(heard.volume).toBeCloseTo(0.2, 5);
    expect(heard.paused).toBe(false);
    expect(heard.src).toMatch(/media\/tone\.wav$/);
    // The tone starts at 0.2 s: its time is the frame's less that, within a few frames of a loaded machine.
    expect(Math.abs(heard.time - (heard.frame / 30 - 0.2))).toBeLessThan(0.25);
    await pause();
    expect(await preview.page.$eval("#sounds audio", (audio: HTMLAudioElement) => audio.paused)).toBe(true);
  });

  it("marks a sound's clip while it plays, and mutes it from the timeline", async () => {
    const clip = '.clip[data-label="tone"]';
    expect(await preview.page.getAttribute(clip, "data-playing")).toBe("false");
    await preview.scrubTo(0);
    await preview.page.click("#play");
    await preview.page.waitForFunction((selector) => document.querySelector<HTMLElement>(selector)?.dataset.playing === "true", clip, {
      timeout: 30_000,
      polling: 10,
    });
    await pause();
    expect(await preview.page.getAttribute(clip, "data-playing")).toBe("false");

    await preview.page.click(`${clip} .mute`);
    expect(await preview.page.getAttribute(`${clip} .mute`, "aria-pressed")).toBe("true");
    await preview.scrubTo(0);
    await preview.page.click("#play");
    await preview.page.waitForFunction(() => Number(document.getElementById("stage")!.dataset.shownFrame) >= 12, undefined, { timeout: 30_000 });
    const heard = await preview.page.$$eval("#sounds audio", (sounds) => sounds.some((audio) => !(audio as HTMLAudioElement).paused));
    const marked = await preview.page.getAttribute(clip, "data-playing");
    await pause();
    await preview.page.click(`${clip} .mute`);
    expect(heard).toBe(false);
    expect(marked).toBe("false");
  });

  it("plays audio at the levels render mixes it at, the mono tone in both channels", async () => {
    await preview.scrubTo(0);
    await preview.page.click("#play");
    // What the page's sound element plays, per channel, through Web Audio as the speakers take it
    // (a mono source up-mixed to both): the RMS level of the last 2048 samples every 10 ms, with
    // the element's volume then, until the play stops at the last frame.
    const samples = await preview.page.evaluate(async () => {
      const until = (test: () => boolean) =>
        new Promise<void>((resolve) => {
          const timer = setInterval(() => test() && (clearInterval(timer), resolve()), 5);
        });
      let audio: HTMLAudioElement | null = null;
      await until(() => (audio = document.querySelector<HTMLAudioElement>("#sounds audio")) !== null);
      const context = new AudioContext();
      const speakers = new GainNode(context, { channelCount: 2, channelCountMode: "explicit", channelInterpretation: "speakers" });
      const split = context.createChannelSplitter(2);
      const analysers = [0, 1].map(() => new AnalyserNode(context, { fftSize: 2048 }));
      context.createMediaElementSource(audio!).connect(speakers);
      speakers.connect(split);
      speakers.connect(context.destination);
      analysers.forEach((analyser, channel) => split.connect(analyser, channel));
      await context.resume();
      const rms = (analyser: AnalyserNode) => {
        const data = new Float32Array(analyser.fftSize);
        analyser.getFloatTimeDomainData(data);
        return 10 * Math.log10(data.reduce((sum, x) => sum + x * x, 0) / data.length);
      };
      const taken: Array<{ at: number; volume: number; playing: boolean; time: number; levels: number[] }> = [];
      await until(() => {
        const sound = audio!;
        taken.push({
          at: performance.now(),
          volume: sound.volume,
          playing: !sound.paused && !sound.ended,
          time: sound.currentTime,
          levels: analysers.map(rms),
        });
        return document.getElementById("play")!.getAttribute("aria-pressed") === "false";
      });
      await context.close();
      return taken;
    });
    // A sample counts when the sound has played at one volume for the whole of the analyser's
    // window and more (2048 samples are under 47 ms), inside the source: it and every sample back
    // to one taken 70 ms or more before it played at its volume, however far apart a loaded
    // machine took them.
    const steady = samples.filter((sample, index) => {
      if (sample.time <= 0.08 || sample.time >= 0.75) return false;
      for (const other of samples.slice(0, index + 1).reverse()) {
        if (!other.playing || other.volume !== sample.volume) return false;
        if (other.at <= sample.at - 70) return true;
      }
      return false;
    });
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const played = (volume: number) => {
      const at = steady.filter((sample) => Math.abs(sample.volume - volume) < 1e-6);
      expect(at.length, `steady samples at volume ${volume} (of ${samples.length})`).toBeGreaterThan(2);
      return [0, 1].map((channel) => Number(median(at.map((sample) => sample.levels[channel]!)).toFixed(2)));
    };
    // data-volume 0.8 times the element's volume: 1 from the tone's start at 0.2 s until 0.5 s, 0.25 after.
    const preview08 = played(0.8);
    const preview02 = played(0.2);
    const [render08, render02] = await Promise.all([channelLevels(rendered, 0.25, 0.45), channelLevels(rendered, 0.6, 0.95)]);
    for (const [what, heard, mixed] of [
      ["0.8", preview08, render08],
      ["0.2", preview02, render02],
    ] as const) {
      expect(mixed, `render's channels at ${what}`).toHaveLength(2);
      heard.forEach((level, channel) =>
        expect(
          Math.abs(level - mixed[channel]!),
          `volume ${what}, channel ${channel}: preview ${level} dB, render ${mixed[channel]!.toFixed(2)} dB`,
        ).toBeLessThan(1),
      );
    }
  });
});
