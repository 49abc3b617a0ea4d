/// <reference lib="dom" />
/**
 * Media in compose preview as render makes them (real Chromium, real ffmpeg): a video shows the
 * frames render extracts for each frame time, not its own playback, and audio plays in step with
 * the frames while playing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG } from "pngjs";
import { CLIP_COLOURS, createCacheDir, generateMedia, MEDIA_FILES } from "../support/test-media.js";
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

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML }, { prefix: "compose-preview-media-" });
  await generateMedia(project.dir, ["colours", "tone"]);
  cache = await createCacheDir();
  preview = await openPreview(project.dir, { env: cache.env });
}, 180_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
  await cache?.remove();
});

async function videoColour(): Promise<number[]> {
  const shot = PNG.sync.read(await preview.page.locator("#composition").screenshot());
  const i = (45 * shot.width + 80) * 4;
  return [...shot.data.subarray(i, i + 3)];
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
    await preview.page.waitForFunction(() => Number(document.getElementById("stage")!.dataset.shownFrame) >= 17, undefined, { timeout: 30_000 });
    const heard = await preview.page.evaluate(() => {
      const audio = document.querySelector<HTMLAudioElement>("#sounds audio")!;
      return { paused: audio.paused, time: audio.currentTime, src: audio.src, volume: audio.volume, frame: Number(document.getElementById("stage")!.dataset.shownFrame) };
    });
    // data-volume 0.8 times the element's volume: 1 before 0.5 s, 0.25 after.
    expect(before.volume).toBeCloseTo(0.8, 5);
    expect(heard.volume).toBeCloseTo(0.2, 5);
    expect(heard.paused).toBe(false);
    expect(heard.src).toMatch(/media\/tone\.wav$/);
    // The tone starts at 0.2 s: its time is the frame's less that, within a few frames of a loaded machine.
    expect(Math.abs(heard.time - (heard.frame / 30 - 0.2))).toBeLessThan(0.25);
    await preview.page.click("#play");
    expect(await preview.page.$eval("#sounds audio", (audio: HTMLAudioElement) => audio.paused)).toBe(true);
  });
});
