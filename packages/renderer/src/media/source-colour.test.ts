import { describe, expect, it } from "vitest";
import { sourceColour, type ProbedColour, type SourceColour } from "./source-colour.js";

describe("sourceColour", () => {
  it.each<[string, ProbedColour, SourceColour]>([
    ["BT.709, limited", { color_space: "bt709", color_range: "tv", pix_fmt: "yuv420p", height: 360 }, { matrix: "bt709", range: "tv" }],
    ["BT.601 (smpte170m) in HD", { color_space: "smpte170m", color_range: "tv", pix_fmt: "yuv420p", height: 1080 }, { matrix: "bt601", range: "tv" }],
    ["BT.601 (bt470bg), full range", { color_space: "bt470bg", color_range: "pc", pix_fmt: "yuv420p", height: 576 }, { matrix: "bt601", range: "pc" }],
    ["BT.2020", { color_space: "bt2020nc", pix_fmt: "yuv420p10le", height: 2160 }, { matrix: "bt2020", range: "tv" }],
    ["yuvj420p without a range tag", { pix_fmt: "yuvj420p", height: 360 }, { matrix: "bt601", range: "pc" }],
    ["untagged SD", { color_space: "unknown", color_range: "unknown", pix_fmt: "yuv420p", height: 576 }, { matrix: "bt601", range: "tv" }],
    ["untagged HD", { pix_fmt: "yuv420p", height: 720 }, { matrix: "bt709", range: "tv" }],
    ["untagged portrait HD", { pix_fmt: "yuv420p", height: 1920 }, { matrix: "bt709", range: "tv" }],
  ])("%s", (_, probed, expected) => {
    expect(sourceColour(probed)).toEqual(expected);
  });
});
