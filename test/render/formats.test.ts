/**
 * Each output format has the codec, pixel format and container the README promises, and the
 * transparent formats really are transparent where the composition draws nothing.
 */
import { readdir, readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { colourDistance, decodeFrame, ffprobe, pixel, topLevelBoxes, videoStream, type ProbeResult } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FORMATS = ["mp4", "mov", "webm", "png-sequence", "gif"] as const;
type Format = (typeof FORMATS)[number];

/** No background anywhere: only the red box is opaque. */
const html = compositionHtml({
  id: "formats",
  duration: 0.5,
  css: `#box { position: absolute; left: 100px; top: 60px; width: 100px; height: 60px; background: #ff0000; }`,
  body: `<div id="box"></div>`,
});
const BOX_PIXEL = [150, 90] as const;
const CORNER_PIXEL = [5, 5] as const;
const RED = [255, 0, 0];

let project: TempProject;
const results = {} as Record<Format, CliResult>;
const outputs = {} as Record<Format, string>;

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  for (const format of FORMATS) outputs[format] = project.path(format === "png-sequence" ? "frames" : `out.${format}`);
  await limited(
    2,
    FORMATS.map((format) => async () => {
      results[format] = await render([project.dir, "--format", format, "--workers", "1", "--output", outputs[format]]);
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function expectSuccess(format: Format): void {
  expect(results[format].stderr, `${format} stderr`).toBe("");
  expect(results[format].code, `${format} exit code`).toBe(0);
}

describe("mp4", () => {
  let probe: ProbeResult;
  beforeAll(async () => {
    if (results.mp4.code === 0) probe = await ffprobe(outputs.mp4);
  });

  it("is H.264, 4:2:0 limited range (yuv420p), 320x180 in an mp4 container", () => {
    expectSuccess("mp4");
    const video = videoStream(probe);
    expect(video.codec_name).toBe("h264");
    expect(video.pix_fmt).toBe("yuv420p");
    expect([video.width, video.height]).toEqual([320, 180]);
    expect(probe.format.format_name).toContain("mp4");
  });

  it("has faststart: the moov box comes before mdat", async () => {
    expectSuccess("mp4");
    const types = topLevelBoxes(await readFile(outputs.mp4)).map((box) => box.type);
    expect(types).toContain("moov");
    expect(types).toContain("mdat");
    expect(types.indexOf("moov")).toBeLessThan(types.indexOf("mdat"));
  });

  it("shows the box in its colour, on an opaque background", async () => {
    expectSuccess("mp4");
    const frame = await decodeFrame(outputs.mp4, 7);
    expect(colourDistance(pixel(frame, ...BOX_PIXEL).slice(0, 3), RED)).toBeLessThanOrEqual(24);
    expect(pixel(frame, ...CORNER_PIXEL)[3]).toBe(255);
    expect(colourDistance(pixel(frame, ...CORNER_PIXEL).slice(0, 3), RED)).toBeGreaterThan(100);
  });
});

describe("mov", () => {
  let probe: ProbeResult;
  beforeAll(async () => {
    if (results.mov.code === 0) probe = await ffprobe(outputs.mov);
  });

  it("is ProRes 4444 with an alpha plane (yuva444p10le or 12le)", () => {
    expectSuccess("mov");
    const video = videoStream(probe);
    expect(video.codec_name).toBe("prores");
    expect(video.profile).toBe("4444");
    expect(video.pix_fmt).toMatch(/^yuva444p1[02]le$/);
    expect([video.width, video.height]).toEqual([320, 180]);
    expect(probe.format.format_name).toContain("mov");
  });

  it("is transparent outside the box and opaque red inside it", async () => {
    expectSuccess("mov");
    const frame = await decodeFrame(outputs.mov, 7);
    expect(pixel(frame, ...CORNER_PIXEL)[3]).toBe(0);
    expect(pixel(frame, ...BOX_PIXEL)[3]).toBe(255);
    expect(colourDistance(pixel(frame, ...BOX_PIXEL).slice(0, 3), RED)).toBeLessThanOrEqual(8);
  });
});

describe("webm", () => {
  let probe: ProbeResult;
  beforeAll(async () => {
    if (results.webm.code === 0) probe = await ffprobe(outputs.webm);
  });

  it("is VP9 in a webm container, with the alpha_mode tag", () => {
    expectSuccess("webm");
    const video = videoStream(probe);
    expect(video.codec_name).toBe("vp9");
    expect([video.width, video.height]).toEqual([320, 180]);
    expect(probe.format.format_name).toContain("webm");
    const tags = Object.fromEntries(Object.entries(video.tags ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
    expect(tags.alpha_mode).toBe("1");
  });

  it("decoded with libvpx, is transparent outside the box and opaque red inside it", async () => {
    expectSuccess("webm");
    const frame = await decodeFrame(outputs.webm, 7, { vp9Alpha: true });
    expect(pixel(frame, ...CORNER_PIXEL)[3]).toBe(0);
    expect(pixel(frame, ...BOX_PIXEL)[3]).toBe(255);
    expect(colourDistance(pixel(frame, ...BOX_PIXEL).slice(0, 3), RED)).toBeLessThanOrEqual(24);
  });
});

describe("png-sequence", () => {
  it("writes frame_000000.png to frame_000014.png (0.5 s at 30 fps) and nothing else", async () => {
    expectSuccess("png-sequence");
    const names = (await readdir(outputs["png-sequence"])).sort();
    expect(names).toEqual(Array.from({ length: 15 }, (_, n) => `frame_${String(n).padStart(6, "0")}.png`));
  });

  it("every frame is an RGBA PNG of 320x180", async () => {
    expectSuccess("png-sequence");
    const names = await readdir(outputs["png-sequence"]);
    const probes = await Promise.all(names.map((name) => ffprobe(`${outputs["png-sequence"]}/${name}`)));
    for (const probe of probes) {
      const video = videoStream(probe);
      expect(video.codec_name).toBe("png");
      expect(video.pix_fmt).toBe("rgba");
      expect([video.width, video.height]).toEqual([320, 180]);
    }
  });

  it("is fully transparent outside the box and exactly opaque red inside it", async () => {
    expectSuccess("png-sequence");
    for (const n of [0, 14]) {
      const frame = await decodeFrame(`${outputs["png-sequence"]}/frame_${String(n).padStart(6, "0")}.png`);
      expect(pixel(frame, ...CORNER_PIXEL)[3]).toBe(0);
      expect(pixel(frame, 319, 179)[3]).toBe(0);
      expect(pixel(frame, ...BOX_PIXEL)).toEqual([255, 0, 0, 255]);
    }
  });
});

describe("gif", () => {
  let probe: ProbeResult;
  beforeAll(async () => {
    if (results.gif.code === 0) probe = await ffprobe(outputs.gif, { countFrames: true });
  });

  it("is a GIF of 320x180 with every frame (15 for 0.5 s at 30 fps) and no audio", () => {
    expectSuccess("gif");
    const video = videoStream(probe);
    expect(video.codec_name).toBe("gif");
    expect([video.width, video.height, video.nb_read_frames]).toEqual([320, 180, "15"]);
    expect(probe.format.format_name).toBe("gif");
    expect(probe.streams).toHaveLength(1);
  });

  it("is transparent outside the box and opaque red inside it", async () => {
    expectSuccess("gif");
    const frame = await decodeFrame(outputs.gif, 7);
    expect(pixel(frame, ...CORNER_PIXEL)[3]).toBe(0);
    expect(pixel(frame, ...BOX_PIXEL)).toEqual([255, 0, 0, 255]);
  });
});
