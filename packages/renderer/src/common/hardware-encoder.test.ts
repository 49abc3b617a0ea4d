import { describe, expect, it } from "vitest";
import { HARDWARE_ENCODERS, trialArgs } from "./hardware-encoder.js";

const byName = (name: string) => HARDWARE_ENCODERS.find((encoder) => encoder.name === name)!;

describe("trialArgs", () => {
  it.each<[string, string[]]>([
    ["h264_nvenc", []],
    ["h264_vaapi", ["-vaapi_device", "/dev/dri/renderD128"]],
    ["h264_qsv", []],
    ["h264_videotoolbox", []],
  ])("%s: a fifth of a second of black through the encoder, into nothing, its device chosen first", (name, device) => {
    const encoder = byName(name);
    expect(trialArgs(encoder)).toEqual([
      "-hide_banner",
      "-loglevel",
      "error",
      ...device,
      "-f",
      "lavfi",
      "-i",
      "color=black:s=256x144:r=30:d=0.2",
      ...(name === "h264_vaapi" ? ["-vf", "format=nv12,hwupload"] : []),
      "-c:v",
      name,
      "-f",
      "null",
      "-",
    ]);
  });

  it.each<[string, number, string[]]>([
    ["h264_nvenc", 18, ["-rc", "vbr", "-cq", "18", "-b:v", "0"]],
    ["h264_vaapi", 18, ["-qp", "18"]],
    ["h264_qsv", 28, ["-global_quality", "28"]],
    ["h264_videotoolbox", 18, ["-q:v", "73"]],
    ["h264_videotoolbox", 28, ["-q:v", "58"]],
  ])("%s at CRF %i is driven by %j", (name, crf, args) => {
    expect(byName(name).qualityArgs(crf)).toEqual(args);
  });
});
