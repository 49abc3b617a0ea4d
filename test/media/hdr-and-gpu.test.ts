/**
 * Dynamic range and the GPU flag: an HLG video source makes mp4 output HEVC 10-bit BT.2020 with
 * the HLG transfer; --sdr forces H.264 SDR; --hdr forces HDR (PQ when no source is HDR) and is
 * refused (exit 2) for another format; an HDR source in webm renders SDR with one hdr-as-sdr
 * warning; --gpu without a hardware encoder warns once and encodes H.264 in software.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines } from "../support/cli.js";
import { decodeFrame, ffprobe, pixel, videoStream, type ProbeStream } from "../support/media.js";
import { compositionHtml } from "../support/project.js";
import { renderMediaSet, type MediaRenders } from "../support/test-media.js";

type ColourStream = ProbeStream & { color_transfer?: string; color_primaries?: string };

const VIDEO_STYLE = "position: absolute; left: 40px; top: 30px; width: 160px; height: 90px";

const FILES: Record<string, string> = {
  /** A grey HLG clip over a black frame. */
  "hlg.html": compositionHtml({
    id: "hlg",
    duration: 0.3,
    backdrop: "#000000",
    body: `<video id="hdr-clip" src="media/hlg.mp4" data-start="0" style="${VIDEO_STYLE}"></video>`,
  }),
  /** No media at all. */
  "plain.html": compositionHtml({
    id: "plain",
    duration: 0.3,
    backdrop: "#000000",
    body: `<div style="position: absolute; left: 40px; top: 30px; width: 160px; height: 90px; background: #ff0000"></div>`,
  }),
};

const RENDERS = {
  hlg: { file: "hlg.html", output: "out/hlg.mp4", flags: [] },
  hlgSdr: { file: "hlg.html", output: "out/hlg-sdr.mp4", flags: ["--sdr"] },
  plainHdr: { file: "plain.html", output: "out/plain-hdr.mp4", flags: ["--hdr"] },
  webmHdr: { file: "plain.html", output: "out/plain-hdr.webm", flags: ["--hdr", "--format", "webm"] },
  hlgWebm: { file: "hlg.html", output: "out/hlg.webm", flags: ["--format", "webm"] },
  gpu: { file: "plain.html", output: "out/gpu.mp4", flags: ["--gpu"] },
} as const;
type RenderName = keyof typeof RENDERS;

/** A hardware encoder might work here: a GPU device node, or macOS (VideoToolbox). */
const MAYBE_HARDWARE = process.platform === "darwin" || existsSync("/dev/dri") || existsSync("/dev/nvidiactl");

let renders: MediaRenders<RenderName>;

beforeAll(async () => {
  renders = await renderMediaSet(FILES, ["hlg"], RENDERS, "compose-media-hdr-");
});
afterAll(() => renders?.remove());

const outputOf = (name: RenderName) => renders.outputOf(name);

async function videoOf(file: string): Promise<ColourStream> {
  return videoStream(await ffprobe(file)) as ColourStream;
}

/** The properties that tell HDR from SDR. */
function range(stream: ColourStream) {
  return {
    codec: stream.codec_name,
    pixFmt: stream.pix_fmt,
    transfer: stream.color_transfer,
    primaries: stream.color_primaries,
    space: stream.color_space,
  };
}

const HDR_HLG = { codec: "hevc", pixFmt: "yuv420p10le", transfer: "arib-std-b67", primaries: "bt2020", space: "bt2020nc" };
const HDR_PQ = { ...HDR_HLG, transfer: "smpte2084" };
const HDR_TRANSFERS = ["arib-std-b67", "smpte2084"];

/** The HLG clip's grey, tone-mapped to SDR: a visible grey, not black and not a colour cast. */
function expectGrey(rgb: number[]): void {
  expect(Math.min(...rgb), `rgb ${rgb}`).toBeGreaterThan(40);
  expect(Math.max(...rgb) - Math.min(...rgb), `rgb ${rgb}`).toBeLessThan(30);
}

describe("HDR from the source", () => {
  it("an HLG video makes mp4 output HEVC 10-bit BT.2020 tagged HLG", async () => {
    expect(range(await videoOf(outputOf("hlg")))).toEqual(HDR_HLG);
  });

  it("--sdr forces H.264 SDR, showing the video tone-mapped", async () => {
    const file = outputOf("hlgSdr");
    const stream = await videoOf(file);
    expect([stream.codec_name, stream.pix_fmt]).toEqual(["h264", "yuv420p"]);
    expect(HDR_TRANSFERS).not.toContain(stream.color_transfer);
    const frame = await decodeFrame(file, 4);
    expectGrey(pixel(frame, 120, 75).slice(0, 3));
    expect(
      pixel(frame, 10, 10)
        .slice(0, 3)
        .every((channel) => channel < 20),
    ).toBe(true);
  });

  it("in webm, an HDR source renders SDR with one hdr-as-sdr warning", async () => {
    const result = renders.results.hlgWebm;
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^warning: \[hdr-as-sdr\] /)]);
    const file = renders.project.path(RENDERS.hlgWebm.output);
    const stream = await videoOf(file);
    expect(stream.codec_name).toBe("vp9");
    expect(stream.pix_fmt).not.toMatch(/10/);
    expect(HDR_TRANSFERS).not.toContain(stream.color_transfer);
    expectGrey(pixel(await decodeFrame(file, 4, { vp9Alpha: true }), 120, 75).slice(0, 3));
  });
});

describe("--hdr", () => {
  it("without an HDR source gives HEVC 10-bit BT.2020 tagged PQ", async () => {
    expect(range(await videoOf(outputOf("plainHdr")))).toEqual(HDR_PQ);
  });

  it("with --format webm is refused: exit 2, one error line naming --hdr, no output", () => {
    const result = renders.results.webmHdr;
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^error: .*--hdr/)]);
    expect(existsSync(renders.project.path(RENDERS.webmHdr.output))).toBe(false);
  });
});

describe("--gpu", () => {
  it.skipIf(MAYBE_HARDWARE)("without a hardware encoder warns once with [gpu-unavailable] and encodes H.264 in software", async () => {
    const result = renders.results.gpu;
    expect(result.code).toBe(0);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^warning: \[gpu-unavailable\] --gpu: /)]);
    const file = renders.project.path(RENDERS.gpu.output);
    const stream = await videoOf(file);
    expect([stream.codec_name, stream.pix_fmt]).toEqual(["h264", "yuv420p"]);
    const rgb = pixel(await decodeFrame(file, 4), 120, 75).slice(0, 3);
    expect(rgb[0]).toBeGreaterThan(230);
    expect(Math.max(rgb[1]!, rgb[2]!)).toBeLessThan(30);
  });
});
