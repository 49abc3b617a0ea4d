/// <reference lib="dom" />
/**
 * The waveform of an audio clip on compose preview's timeline (real Chromium): drawn from the
 * decoded sound, tall where the sound is loud and empty where it is silent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const RATE = 8000;

/** A mono 16-bit WAV file: 0.5 s of a loud 440 Hz tone, then 0.5 s of silence. */
function toneThenSilence(): Buffer {
  const samples = RATE;
  const file = Buffer.alloc(44 + samples * 2);
  file.write("RIFF", 0);
  file.writeUInt32LE(36 + samples * 2, 4);
  file.write("WAVEfmt ", 8);
  file.writeUInt32LE(16, 16);
  file.writeUInt16LE(1, 20);
  file.writeUInt16LE(1, 22);
  file.writeUInt32LE(RATE, 24);
  file.writeUInt32LE(RATE * 2, 28);
  file.writeUInt16LE(2, 32);
  file.writeUInt16LE(16, 34);
  file.write("data", 36);
  file.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples / 2; index++) file.writeInt16LE(Math.round(26000 * Math.sin((2 * Math.PI * 440 * index) / RATE)), 44 + index * 2);
  return file;
}

const INDEX_HTML = compositionHtml({
  id: "sound",
  duration: 1,
  body: `<audio id="voice" src="voice.wav" data-start="0" data-duration="1" data-track-index="0"></audio>`,
});

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML, "voice.wav": toneThenSilence() }, { prefix: "compose-preview-waveform-" });
  preview = await openPreview(project.dir);
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

describe("the timeline's audio clips", () => {
  it("draw the sound's waveform: tall where the tone is, empty where it is silent", async () => {
    await preview.page.waitForSelector('.clip[data-kind="audio"] canvas.waveform[data-drawn="true"]', { timeout: 20_000 });
    // The painted height of each canvas column, as a share of the canvas's height.
    const heights = await preview.page.$eval('.clip[data-kind="audio"] canvas.waveform', (canvas: HTMLCanvasElement) => {
      const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
      return Array.from({ length: canvas.width }, (_, x) => {
        let painted = 0;
        for (let y = 0; y < canvas.height; y++) if (data[(y * canvas.width + x) * 4 + 3]! > 0) painted++;
        return painted / canvas.height;
      });
    });
    const loud = heights.slice(Math.round(heights.length * 0.05), Math.round(heights.length * 0.45));
    const silent = heights.slice(Math.round(heights.length * 0.55), Math.round(heights.length * 0.95));
    expect(loud.length).toBeGreaterThan(10);
    expect(Math.min(...loud), "the tone's columns").toBeGreaterThan(0.6);
    expect(Math.max(...silent), "the silence's columns").toBe(0);
  });
});
