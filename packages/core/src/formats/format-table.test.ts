import { describe, expect, it } from "vitest";
import { validateRenderOptions } from "../options/render-options.js";
import { OUTPUT_FORMATS } from "../options/option-declarations.js";
import {
  allowsHardwareEncoding,
  contentTypeOfFile,
  FOLDER_FORMAT,
  FORMAT_TABLE,
  formatsWhere,
  isFolderOutput,
  paletteEncoding,
  partExtension,
} from "./format-table.js";

describe("the format table", () => {
  it("says per format its extension, content type, frame image, alpha, audio and which rate options apply", () => {
    const rows = Object.entries(FORMAT_TABLE).map(([format, facts]) => [
      format,
      facts.extension,
      facts.contentType,
      facts.frameImage,
      facts.alpha,
      facts.audio?.codec,
      facts.crf,
      facts.bitrate,
      facts.hdr,
    ]);
    expect(rows).toEqual([
      ["mp4", ".mp4", "video/mp4", "jpeg", false, "aac", true, true, true],
      ["mov", ".mov", "video/quicktime", "png", true, "aac", false, false, false],
      ["webm", ".webm", "video/webm", "png", true, "libopus", true, true, false],
      ["png-sequence", "", "image/png", "png", true, "aac", false, false, false],
      ["gif", ".gif", "image/gif", "png", true, undefined, false, false, false],
    ]);
  });

  it("says per format its encoders, pixel format, colour tags and audio bitrate", () => {
    const rows = Object.entries(FORMAT_TABLE).map(([format, facts]) => [
      format,
      facts.video.codec,
      facts.video.pixelFormat,
      facts.colour?.matrix,
      facts.audio?.bitrate,
    ]);
    expect(rows).toEqual([
      ["mp4", "libx264", "yuv420p", "smpte170m", "192k"],
      ["mov", "prores_ks", "yuva444p10le", "bt709", "192k"],
      ["webm", "libvpx-vp9", "yuva420p", "smpte170m", "160k"],
      ["png-sequence", "png", "rgba", undefined, "192k"],
      ["gif", "gif", "pal8", undefined, undefined],
    ]);
  });

  it("says which format is made in two passes, through which lossless parts, at which frame rates, and which has a loop count", () => {
    expect(OUTPUT_FORMATS.filter((format) => paletteEncoding(format) !== undefined)).toEqual(["gif"]);
    expect(OUTPUT_FORMATS.map(partExtension)).toEqual([".mp4", ".mov", ".webm", "", ".mov"]);
    expect(OUTPUT_FORMATS.map((format) => FORMAT_TABLE[format].frameRates)).toEqual([
      [24, 30, 60],
      [24, 30, 60],
      [24, 30, 60],
      [24, 30, 60],
      [24, 30],
    ]);
    expect(formatsWhere("loop")).toEqual(["gif"]);
    expect(formatsWhere("subsampled")).toEqual(["mp4", "webm"]);
  });

  it("answers which output is a folder, which container starts playing early and where the gpu option applies", () => {
    expect(OUTPUT_FORMATS.filter(isFolderOutput)).toEqual(["png-sequence"]);
    expect(FOLDER_FORMAT).toBe("png-sequence");
    expect(OUTPUT_FORMATS.filter((format) => FORMAT_TABLE[format].faststart)).toEqual(["mp4", "mov"]);
    expect(OUTPUT_FORMATS.filter(allowsHardwareEncoding)).toEqual(["mp4"]);
    expect(formatsWhere("hardware")).toEqual(["mp4"]);
  });

  it("answers the option rules: crf and videoBitrate where the table allows them, hdr likewise", () => {
    expect(formatsWhere("crf")).toEqual(["mp4", "webm"]);
    for (const format of Object.keys(FORMAT_TABLE)) {
      expect(validateRenderOptions({ format, crf: 20 }).ok, `crf with ${format}`).toBe(FORMAT_TABLE[format as keyof typeof FORMAT_TABLE].crf);
      expect(validateRenderOptions({ format, videoBitrate: "2M" }).ok, `videoBitrate with ${format}`).toBe(
        FORMAT_TABLE[format as keyof typeof FORMAT_TABLE].bitrate,
      );
      expect(validateRenderOptions({ format, hdr: true }).ok, `hdr with ${format}`).toBe(FORMAT_TABLE[format as keyof typeof FORMAT_TABLE].hdr);
    }
    expect(validateRenderOptions({ format: "webm", hdr: true })).toMatchObject({
      ok: false,
      problem: { field: "hdr", problem: "applies to mp4 only, not webm" },
    });
    expect(validateRenderOptions({ format: "mov", videoBitrate: "2M" })).toMatchObject({
      ok: false,
      problem: { field: "videoBitrate", problem: "applies to mp4 and webm, not mov" },
    });
  });

  it("gives the content type of each file an output is made of", () => {
    expect(["a.mp4", "a.MOV", "a.webm", "a.gif", "frame_000001.png", "audio.aac", "notes.txt"].map(contentTypeOfFile)).toEqual([
      "video/mp4",
      "video/quicktime",
      "video/webm",
      "image/gif",
      "image/png",
      "audio/aac",
      undefined,
    ]);
  });
});
