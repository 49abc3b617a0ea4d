/// <reference lib="dom" />
/**
 * <compose-player> plays a composition's sound in step with its frames at the levels render mixes
 * it at, in chromium and firefox-esr: a mono tone at its data-volume, then faded by a script's
 * volume change (which render mixes as an envelope), heard through Web Audio as the speakers take
 * it and compared per channel with the rendered file's levels, within 1 dB. Where the browser plays
 * it, the frames keep to its time, also on a busy machine that starts it late.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, type TempProject } from "../support/project.js";
import { createPlayerSite, PLAYER_IDLE, playerPage } from "../support/player-project.js";
import { serveStatic, type StaticServer } from "../support/static-server.js";
import { channelLevels, generateMedia, MEDIA_FILES } from "../support/test-media.js";
import { BROWSERS, openWebPage, type WebPage } from "../support/web-browsers.js";

/** A tone from 0.2 s at data-volume 0.8, its element's volume 1 until 0.5 s and 0.25 after. */
const COMPOSITION = compositionHtml({
  id: "sound",
  duration: 1,
  backdrop: "#203040",
  body: `<div id="dot" style="position: absolute; top: 80px; width: 20px; height: 20px; background: #fff"></div>
<audio id="tone" src="${MEDIA_FILES.tone}" data-start="0.2" data-duration="0.8" data-volume="0.8"></audio>`,
  after: `<script>
  document.getElementById("dot").animate([{ left: "0px" }, { left: "300px" }], { duration: 1000, fill: "both" });
  __compose.onSeek((t) => { document.getElementById("tone").volume = t < 0.5 ? 1 : 0.25; });
</script>`,
});

/**
 * Runs in the page: plays the player from 0 and takes, every 5 ms until it stops, the level of each
 * channel of what its sound element plays (RMS of the last 2048 samples, in dB), with the
 * element's volume and time then. Where the browser can play sound (its AudioContext runs), that is
 * what the element sends to the speakers, through Web Audio; where it cannot (firefox-esr finds no
 * audio device in a container), the element's source is rendered by an OfflineAudioContext to the
 * speakers' two channels and taken at the element's time and volume. A string, so that no
 * transpiler helper leaks into the page.
 */
const LISTEN = `async (selector) => {
  const player = document.querySelector(selector);
  const until = (test) => new Promise((resolve) => { const timer = setInterval(() => test() && (clearInterval(timer), resolve()), 5); });
  const WINDOW = 2048;
  const decibels = (data, gain) => 10 * Math.log10((data.reduce((sum, x) => sum + x * x, 0) / data.length) * gain * gain);
  // One context and one graph for the page's every play: an element joins a graph once.
  const listening = (window.__listening ??= { context: new AudioContext(), analysers: new WeakMap() });
  const context = listening.context;
  const live = await Promise.race([context.resume().then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 1000))]);
  player.currentFrame = 0;
  await player.whenIdle();
  const stopped = new Promise((resolve) => player.addEventListener("pause", resolve, { once: true }));
  player.play();
  let audio = null;
  await until(() => (audio = player.shadowRoot.querySelector("audio")) !== null);
  let analysers = [];
  if (live && !listening.analysers.has(audio)) {
    const speakers = new GainNode(context, { channelCount: 2, channelCountMode: "explicit", channelInterpretation: "speakers" });
    const split = context.createChannelSplitter(2);
    const channels = [0, 1].map(() => new AnalyserNode(context, { fftSize: WINDOW }));
    context.createMediaElementSource(audio).connect(speakers);
    speakers.connect(split);
    speakers.connect(context.destination);
    channels.forEach((analyser, channel) => split.connect(analyser, channel));
    listening.analysers.set(audio, channels);
  }
  if (live) analysers = listening.analysers.get(audio);
  const taken = [];
  let done = false;
  stopped.then(() => (done = true));
  await until(() => {
    taken.push({ at: performance.now(), frame: player.currentFrame, volume: audio.volume, playing: !audio.paused && !audio.ended, time: audio.currentTime, levels: analysers.map((analyser) => {
      const data = new Float32Array(analyser.fftSize);
      analyser.getFloatTimeDomainData(data);
      return decibels(data, 1);
    }) });
    return done;
  });
  if (!live) {
    const encoded = await (await fetch(audio.src)).arrayBuffer();
    const offline = new OfflineAudioContext(2, 48000 * 2, 48000);
    const source = new AudioBufferSourceNode(offline, { buffer: await offline.decodeAudioData(encoded) });
    source.connect(offline.destination);
    source.start();
    const played = await offline.startRendering();
    for (const sample of taken) {
      const end = Math.round(sample.time * played.sampleRate);
      sample.levels = [0, 1].map((channel) => decibels(played.getChannelData(channel).subarray(Math.max(0, end - WINDOW), end), sample.volume));
    }
  }
  return { live, samples: taken };
}`;

interface Sample {
  at: number;
  frame: number;
  volume: number;
  playing: boolean;
  time: number;
  levels: number[];
}

let site: TempProject;
let server: StaticServer;
let rendered: string;

beforeAll(async () => {
  site = await createPlayerSite(
    { "index.html": playerPage(`<compose-player id="player" src="comp/index.html"></compose-player>`), "comp/index.html": COMPOSITION },
    { prefix: "compose-player-audio-" },
  );
  await generateMedia(site.path("comp"), ["tone"]);
  server = await serveStatic(site.dir);
  rendered = site.path("out.mp4");
  const run = await render([site.path("comp/index.html"), "--quiet", "--workers", "1", "--output", rendered]);
  expect(run.stderr, "render's stderr").toBe("");
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await server?.close();
  await site?.remove();
});

describe.each(BROWSERS)("<compose-player>'s sound in %s", (browser) => {
  let web: WebPage;

  beforeAll(async () => {
    web = await openWebPage(browser, server.url);
    await web.run(PLAYER_IDLE, "#player");
  }, 60_000);

  afterAll(async () => {
    await web?.close();
  });

  it("plays at the levels render mixes, the mono tone in both channels, its fade included", async () => {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // A sample counts when the sound has played at one volume for the whole of the analyser's
    // window and more (2048 samples are under 47 ms), inside the source: it and every sample back
    // to one taken 70 ms or more before it played at its volume.
    const steadyOf = (samples: Sample[]) =>
      samples.filter((sample, index) => {
        if (sample.time <= 0.08 || sample.time >= 0.75) return false;
        for (const other of samples.slice(0, index + 1).reverse()) {
          if (!other.playing || other.volume !== sample.volume) return false;
          if (other.at <= sample.at - 70) return true;
        }
        return false;
      });
    const plays: Array<{ live: boolean; samples: Sample[] }> = [];
    const steadyAt = (volume: number) => plays.flatMap(({ samples }) => steadyOf(samples)).filter((sample) => Math.abs(sample.volume - volume) < 1e-6);
    // A busy machine samples a play sparsely: the page plays it again, as a listener keeps listening,
    // until each volume has steady samples (eight plays at most).
    while (plays.length < 8 && (plays.length === 0 || [0.8, 0.2].some((volume) => steadyAt(volume).length <= 2))) {
      plays.push(await web.run<{ live: boolean; samples: Sample[] }>(LISTEN, "#player"));
    }
    const live = plays[0]!.live;
    const samples = plays.flatMap((play) => play.samples);
    // In step: the tone, from 0.2 s, is at the frame asked for. Where the browser plays it, the frames
    // keep to its time: a frame is asked for when the sound gets there (the sound is at it or up to a
    // frame and a half past it), also when it starts late or a busy machine slows it. Where it does
    // not play (its time stands still), the player moves it back when it drifts 0.1 s.
    const gaps = samples.filter((sample) => sample.playing && sample.frame >= 9).map((sample) => sample.time - (sample.frame / 30 - 0.2));
    if (live) {
      const gap = median(gaps);
      expect(gap, "the sound's time against the frame's").toBeGreaterThan(-0.01);
      expect(gap, "the sound's time against the frame's").toBeLessThan(0.05);
    } else expect(median(gaps.map(Math.abs)), "the sound's time against the frame's").toBeLessThan(0.1);
    const played = (volume: number) => {
      const at = steadyAt(volume);
      expect(at.length, `steady samples at volume ${volume} (of ${samples.length})`).toBeGreaterThan(2);
      return [0, 1].map((channel) => Number(median(at.map((sample) => sample.levels[channel]!)).toFixed(2)));
    };
    // data-volume 0.8 times the element's volume: 1 from the tone's start at 0.2 s until 0.5 s, 0.25 after.
    const heard = { "0.8": played(0.8), "0.2": played(0.2) };
    const mixed = { "0.8": await channelLevels(rendered, 0.25, 0.45), "0.2": await channelLevels(rendered, 0.6, 0.95) };
    for (const volume of ["0.8", "0.2"] as const) {
      expect(mixed[volume], `render's channels at ${volume}`).toHaveLength(2);
      heard[volume].forEach((level, channel) => {
        const render = mixed[volume][channel]!;
        console.log(
          `${browser} (${live ? "heard" : "its source at its element's volume"}): volume ${volume}, channel ${channel}: player ${level} dB, render ${render.toFixed(2)} dB`,
        );
        expect(Math.abs(level - render), `volume ${volume}, channel ${channel}: player ${level} dB, render ${render.toFixed(2)} dB`).toBeLessThan(1);
      });
    }
  });
});
