import { describe, expect, it } from "vitest";
import type { EncodeSettings } from "../2-plan/render-plan.js";
import { encodeArgs } from "./encoder-args.js";
import { HARDWARE_ENCODERS } from "../common/hardware-encoder.js";

const hardware = (name: string) => HARDWARE_ENCODERS.find((encoder) => encoder.name === name)!;
const base = { fps: 30, width: 320, height: 180, quality: "standard" } as const;

/** The value after `flag`, or undefined when the flag is absent. */
function option(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args[at + 1];
}

const EXACT = "flags=accurate_rnd+full_chroma_int+bitexact";
const LABELS_BT601 = "setparams=colorspace=smpte170m:color_primaries=bt709:color_trc=bt709";
const LABELS_BT709 = "setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709";
/** Full to limited range, the matrix kept: levels only. */
const JPEG_TO_LIMITED = `scale=in_range=full:in_color_matrix=bt601:out_range=tv:out_color_matrix=bt601:${EXACT},format=yuv420p,${LABELS_BT601}`;
const PNG_TO_BT601 = `scale=out_range=tv:out_color_matrix=bt601:${EXACT}`;
const PNG_TO_BT709 = `scale=out_range=tv:out_color_matrix=bt709:${EXACT}`;
const BT601_TAGS = ["smpte170m", "bt709", "bt709", "tv"];
const BT709_TAGS = ["bt709", "bt709", "bt709", "tv"];

const ROWS: Array<{ name: string; settings: EncodeSettings; filter: string; pixelFormat?: string; tags?: string[]; codec: Record<string, string> }> = [
  {
    name: "mp4: the JPEGs' BT.601 YCbCr brought to limited range, tagged as limited-range BT.601",
    settings: { ...base, format: "mp4" },
    filter: `${JPEG_TO_LIMITED},fps=30`,
    pixelFormat: "yuv420p",
    tags: BT601_TAGS,
    codec: { "-c:v": "libx264", "-preset": "medium", "-crf": "18", "-chroma_sample_location": "center" },
  },
  {
    name: "mp4 draft with --crf",
    settings: { ...base, format: "mp4", quality: "draft", crf: 23 },
    filter: `${JPEG_TO_LIMITED},fps=30`,
    pixelFormat: "yuv420p",
    tags: BT601_TAGS,
    codec: { "-preset": "ultrafast", "-crf": "23" },
  },
  {
    name: "mp4 with --video-bitrate",
    settings: { ...base, format: "mp4", videoBitrate: "4M" },
    filter: `${JPEG_TO_LIMITED},fps=30`,
    pixelFormat: "yuv420p",
    tags: BT601_TAGS,
    codec: { "-b:v": "4M", "-maxrate": "4M", "-bufsize": "8M" },
  },
  {
    name: "mp4 on NVENC: as in software, limited-range BT.601",
    settings: { ...base, format: "mp4", hardware: hardware("h264_nvenc") },
    filter: `${JPEG_TO_LIMITED},fps=30`,
    pixelFormat: "yuv420p",
    tags: BT601_TAGS,
    codec: { "-c:v": "h264_nvenc", "-cq": "18" },
  },
  {
    name: "mp4 on VAAPI: converted, then uploaded",
    settings: { ...base, format: "mp4", hardware: hardware("h264_vaapi") },
    filter: `${JPEG_TO_LIMITED},fps=30,format=nv12,hwupload`,
    tags: BT601_TAGS,
    codec: { "-c:v": "h264_vaapi", "-qp": "18", "-vaapi_device": "/dev/dri/renderD128" },
  },
  {
    name: "mp4 HDR (PQ): zscale to BT.2020, HEVC 10-bit",
    settings: { ...base, format: "mp4", hdr: "pq" },
    filter:
      "zscale=rangein=full:matrixin=170m:transferin=iec61966-2-1:primariesin=709:transfer=smpte2084:matrix=2020_ncl:primaries=2020:range=limited:npl=203,format=yuv420p10le,fps=30",
    pixelFormat: "yuv420p10le",
    tags: ["bt2020nc", "bt2020", "smpte2084", "tv"],
    codec: { "-c:v": "libx265" },
  },
  {
    name: "webm: PNG converted exactly to BT.601 limited, with alpha",
    settings: { ...base, format: "webm" },
    filter: `${PNG_TO_BT601},format=yuva420p,${LABELS_BT601},fps=30`,
    pixelFormat: "yuva420p",
    tags: BT601_TAGS,
    codec: { "-c:v": "libvpx-vp9", "-crf": "18", "-b:v": "0", "-cpu-used": "4" },
  },
  {
    name: "mov: PNG converted exactly to 10-bit BT.709 limited, with alpha",
    settings: { ...base, format: "mov", quality: "high" },
    filter: `${PNG_TO_BT709},format=yuva444p10le,${LABELS_BT709},fps=30`,
    pixelFormat: "yuva444p10le",
    tags: BT709_TAGS,
    codec: { "-c:v": "prores_ks", "-profile:v": "4444", "-qscale:v": "3" },
  },
  {
    name: "png-sequence: the page's RGBA as it is, untagged",
    settings: { ...base, format: "png-sequence", fps: 60 },
    filter: "fps=60",
    pixelFormat: "rgba",
    codec: { "-c:v": "png" },
  },
  {
    name: "gif: each worker's part is lossless QuickTime Animation with alpha, one keyframe, for the palette pass",
    settings: { ...base, format: "gif", fps: 24 },
    filter: "fps=24",
    pixelFormat: "argb",
    codec: { "-c:v": "qtrle", "-g": "2147483647" },
  },
  {
    name: "mp4 at --scale 0.25: drawn at 0.5, reduced to the output's size by area, then converted",
    settings: { ...base, format: "mp4", width: 80, height: 45, capturedSize: { width: 160, height: 90 } },
    filter: `scale=80:45:flags=area+accurate_rnd+bitexact,${JPEG_TO_LIMITED},fps=30`,
    pixelFormat: "yuv420p",
    tags: BT601_TAGS,
    codec: { "-c:v": "libx264" },
  },
  {
    name: "png-sequence at --scale 0.25: reduced with the colours weighed by their alpha",
    settings: { ...base, format: "png-sequence", width: 80, height: 45, capturedSize: { width: 160, height: 90 } },
    filter: "premultiply=inplace=1,scale=80:45:flags=area+accurate_rnd+bitexact,unpremultiply=inplace=1,fps=30",
    pixelFormat: "rgba",
    codec: { "-c:v": "png" },
  },
];

describe("encodeArgs", () => {
  it.each(ROWS)("$name", ({ settings, filter, pixelFormat, tags, codec }) => {
    const args = encodeArgs(settings, { kind: "file", path: "out" }, 10);
    expect(option(args, "-vf")).toBe(filter);
    expect(option(args, "-pix_fmt")).toBe(pixelFormat);
    expect(["-colorspace", "-color_primaries", "-color_trc", "-color_range"].map((flag) => option(args, flag))).toEqual(
      tags ?? [undefined, undefined, undefined, undefined],
    );
    for (const [flag, value] of Object.entries(codec)) expect(option(args, flag), flag).toBe(value);
    expect(option(args, "-frames:v")).toBe("10");
    // Device options must come before the input they apply to.
    if (settings.hardware?.deviceArgs.length) expect(args.indexOf(settings.hardware.deviceArgs[0]!)).toBeLessThan(args.indexOf("-i"));
  });

  it("a chunk has no container flags; a file has +faststart for mp4 and mov only", () => {
    const mp4 = { ...base, format: "mp4" } as const;
    expect(encodeArgs(mp4, { kind: "chunk", path: "c.mp4" }, 1)).not.toContain("-movflags");
    expect(option(encodeArgs(mp4, { kind: "file", path: "o.mp4" }, 1), "-movflags")).toBe("+faststart");
    expect(encodeArgs({ ...base, format: "webm" }, { kind: "file", path: "o.webm" }, 1)).not.toContain("-movflags");
  });
});
