import { describe, expect, it } from "vitest";
import { defaultWorkerCount, formatOfExtension, formatOfOutputPath, frameCount, validateRenderOptions } from "./render-options.js";

describe("validateRenderOptions", () => {
  it("fills the documented defaults", () => {
    const result = validateRenderOptions({});
    expect(result).toEqual({
      ok: true,
      options: {
        format: "mp4",
        fps: 30,
        quality: "standard",
        scale: 1,
        gifLoop: 0,
        workers: "auto",
        gpu: false,
        hdr: false,
        sdr: false,
        docker: false,
        strictVariables: false,
        allowMissingAssets: false,
        replaceOutput: false,
      },
    });
  });

  it.each([
    [{ format: "avi" }, "format", "must be one of mp4, mov, webm, png-sequence, gif"],
    [{ fps: 25 }, "fps", "must be one of 24, 30, 60"],
    [{ quality: "ultra" }, "quality", "must be one of draft, standard, high"],
    [{ crf: 52 }, "crf", "must be an integer from 0 to 51"],
    [{ crf: -1 }, "crf", "must be an integer from 0 to 51"],
    [{ crf: 1.5 }, "crf", "must be an integer from 0 to 51"],
    [{ videoBitrate: "fast" }, "videoBitrate", "must be a bitrate such as 5M or 800k"],
    [{ workers: 0 }, "workers", "must be an integer from 1 to 8, or auto"],
    [{ workers: 9 }, "workers", "must be an integer from 1 to 8, or auto"],
    [{ workers: 1.5 }, "workers", "must be an integer from 1 to 8, or auto"],
    [{ workers: "many" }, "workers", "must be an integer from 1 to 8, or auto"],
    [{ crf: 20, videoBitrate: "5M" }, "crf", "cannot be combined with videoBitrate: choose one"],
    [{ hdr: true, format: "webm" }, "hdr", "applies to mp4 only, not webm"],
    [{ hdr: true, sdr: true }, "hdr", "cannot be combined with sdr: choose one"],
    [{ crf: 20, format: "mov" }, "crf", "applies to mp4 and webm, not mov"],
    [{ variables: [1] }, "variables", "must be a JSON object mapping variable ids to values"],
    [{ colour: "red" }, "colour", "is not a render option"],
    [{ scale: 0.2 }, "scale", "must be a number from 0.25 to 4"],
    [{ scale: 4.5 }, "scale", "must be a number from 0.25 to 4"],
    [{ scale: "2x" }, "scale", "must be a number from 0.25 to 4"],
    [{ gifLoop: -2, format: "gif" }, "gifLoop", "must be an integer from -1 to 65535: 0 repeats forever, -1 plays once"],
    [{ gifLoop: 1.5, format: "gif" }, "gifLoop", "must be an integer from -1 to 65535: 0 repeats forever, -1 plays once"],
    [{ gifLoop: 65536, format: "gif" }, "gifLoop", "must be an integer from -1 to 65535: 0 repeats forever, -1 plays once"],
    [{ gifLoop: 3 }, "gifLoop", "applies to gif only, not mp4"],
    [{ format: "gif", fps: 60 }, "fps", "must be 24 or 30 for gif"],
    [{ format: "gif", crf: 20 }, "crf", "applies to mp4 and webm, not gif"],
  ])("refuses %j", (input, field, problem) => {
    const result = validateRenderOptions(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect([result.problem.field, result.problem.problem]).toEqual([field, problem]);
  });

  it("names the rejected value, and the other field of a conflict as the caller calls it", () => {
    expect(validateRenderOptions({ fps: 25 })).toEqual({ ok: false, problem: { field: "fps", problem: "must be one of 24, 30, 60", value: 25 } });
    expect(validateRenderOptions({ crf: 20, videoBitrate: "5M" }, (field) => `<${field}>`)).toEqual({
      ok: false,
      problem: { field: "crf", problem: "cannot be combined with <videoBitrate>: choose one" },
    });
  });

  it("accepts every documented value", () => {
    for (const format of ["mp4", "mov", "webm", "png-sequence"]) {
      for (const fps of [24, 30, 60]) {
        expect(validateRenderOptions({ format, fps }).ok).toBe(true);
      }
    }
    for (const fps of [24, 30]) expect(validateRenderOptions({ format: "gif", fps }).ok).toBe(true);
    for (const gifLoop of [-1, 0, 1, 65535]) expect(validateRenderOptions({ format: "gif", gifLoop }).ok).toBe(true);
    for (const scale of [0.25, 0.5, 1.5, 4]) expect(validateRenderOptions({ scale }).ok).toBe(true);
    expect(validateRenderOptions({ crf: 0, videoBitrate: undefined }).ok).toBe(true);
    expect(validateRenderOptions({ videoBitrate: "2.5M", workers: 8 }).ok).toBe(true);
  });
});

describe("worker and frame rules", () => {
  it.each([
    [8, 4],
    [12, 4],
    [4, 2],
    [2, 1],
    [1, 1],
  ])("%i cores give %i workers", (cores, workers) => {
    expect(defaultWorkerCount(cores)).toBe(workers);
  });

  it("counts round(duration x fps) frames", () => {
    expect(frameCount(1, 30)).toBe(30);
    expect(frameCount(0.5, 24)).toBe(12);
    expect(frameCount(2.01, 60)).toBe(121);
  });
});

describe("formatOfOutputPath", () => {
  it.each([
    ["out.mp4", false, "mp4"],
    ["renders/Out.MOV", false, "mov"],
    ["a.b/clip.webm", false, "webm"],
    ["frames/", false, "png-sequence"],
    ["frames", false, "png-sequence"],
    ["existing.mp4", true, "png-sequence"],
    ["C:\\renders\\clip.webm", false, "webm"],
    ["loop.GIF", false, "gif"],
  ])("%s (directory: %s) is %s", (path, isDirectory, format) => {
    expect(formatOfOutputPath(path, isDirectory)).toEqual({ ok: true, format });
  });

  it("refuses an extension that names no format, saying what is allowed", () => {
    const choice = formatOfOutputPath("clip.avi", false);
    expect(choice).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /ends in \.avi, which names no output format: use \.mp4, \.mov, \.webm or \.gif, a directory for png-sequence, or --format/,
      ),
    });
  });
});

describe("formatOfExtension", () => {
  it.each([
    ["x.mp4", "mp4"],
    ["x.webm", "webm"],
    ["x.png", undefined],
    ["x", undefined],
    [".mp4", undefined],
  ])("%s -> %s", (path, format) => {
    expect(formatOfExtension(path)).toBe(format);
  });
});
