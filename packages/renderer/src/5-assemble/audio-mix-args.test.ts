import { describe, expect, it } from "vitest";
import type { AudioClip } from "../media/audio-clip.js";
import { audioClip } from "../media/audio-clip.test-helpers.js";
import { mixArgs, tempoFactors } from "./audio-mix-args.js";

const clip = audioClip;

const FLOAT_STEREO = "aformat=sample_fmts=flt:sample_rates=48000:channel_layouts=stereo";

/** The value after `flag` in an argument list. */
const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe("mixArgs", () => {
  it.each<[string, AudioClip[], string[], string]>([
    [
      "one stereo clip at 0.5 s",
      [clip()],
      [],
      `[0:a:0]aresample=48000,volume=1,adelay=500:all=1,${FLOAT_STEREO}[a0];[a0]amix=inputs=1:normalize=0:duration=longest,apad=whole_dur=3,atrim=end=3[mix]`,
    ],
    [
      "a mono clip, copied to both channels at its own level",
      [clip({ channels: 1 })],
      [],
      `[0:a:0]pan=stereo|c0=c0|c1=c0,aresample=48000,volume=1,adelay=500:all=1,${FLOAT_STEREO}[a0];[a0]amix=inputs=1:normalize=0:duration=longest,apad=whole_dur=3,atrim=end=3[mix]`,
    ],
    [
      "a quarter-speed clip at half volume",
      [clip({ playbackRate: 0.25, volume: 0.5, start: 0 })],
      [],
      `[0:a:0]aresample=48000,atempo=0.5,atempo=0.5,volume=0.5,adelay=0:all=1,${FLOAT_STEREO}[a0];[a0]amix=inputs=1:normalize=0:duration=longest,apad=whole_dur=3,atrim=end=3[mix]`,
    ],
    [
      "two clips, the second under a gain envelope, which multiplies both channels",
      [clip(), clip({ key: "1", start: 1 })],
      [undefined, "gain-1.f32"] as unknown as string[],
      `[0:a:0]aresample=48000,volume=1,adelay=500:all=1,${FLOAT_STEREO}[a0];` +
        `[1:a:0]aresample=48000,volume=1,adelay=1000:all=1,${FLOAT_STEREO}[s1];` +
        `[2:a:0]pan=stereo|c0=c0|c1=c0,${FLOAT_STEREO}[g1];[s1][g1]amultiply[a1];` +
        "[a0][a1]amix=inputs=2:normalize=0:duration=longest,apad=whole_dur=3,atrim=end=3[mix]",
    ],
  ])("%s", (_, clips, envelopes, graph) => {
    const args = mixArgs(clips, 3, "mp4", "out.m4a", envelopes);
    expect(after(args, "-filter_complex")).toBe(graph);
    expect(args.at(-1)).toBe("out.m4a");
  });

  it("opens a URL through the policy proxy, after where it starts and how long it lasts", () => {
    const args = mixArgs([clip({ mediaStart: 1, input: { location: "https://cdn.example.com/a.mp3", proxy: "http://127.0.0.1:4100" } })], 3, "mp4", "out.m4a");
    expect(args.slice(0, 14)).toEqual([
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-ss",
      "1",
      "-t",
      "2",
      "-http_proxy",
      "http://127.0.0.1:4100",
      "-i",
      "https://cdn.example.com/a.mp3",
      "-filter_complex",
      after(args, "-filter_complex"),
    ]);
  });

  it("reads an envelope as raw mono float samples at the mix's rate, after the clips", () => {
    const args = mixArgs([clip()], 3, "webm", "out.opus", ["gain-0.f32"]);
    expect(args.slice(args.indexOf("-f"), args.indexOf("gain-0.f32") + 1)).toEqual(["-f", "f32le", "-ar", "48000", "-ac", "1", "-i", "gain-0.f32"]);
    expect(args.indexOf("tone.wav")).toBeLessThan(args.indexOf("gain-0.f32"));
    expect(after(args, "-c:a")).toBe("libopus");
  });

  it.each<[string, number, string[]]>([
    ["mp4", 3, ["-c:a", "aac", "-b:a", "192k"]],
    ["png-sequence", 3, ["-c:a", "aac", "-b:a", "192k", "-f", "adts"]],
    ["webm", 3, ["-c:a", "libopus", "-b:a", "160k"]],
  ])("%s carries its own codec", (format, total, codec) => {
    const args = mixArgs([clip()], total, format as "mp4", "out");
    expect(args.slice(args.indexOf("-c:a"), args.indexOf("-c:a") + codec.length)).toEqual(codec);
  });
});

describe("tempoFactors", () => {
  it.each([
    [1, []],
    [2, [2]],
    [0.5, [0.5]],
    [0.2, [0.5, 0.5, 0.8]],
  ])("%s -> %j", (rate, factors) => {
    expect(tempoFactors(rate)).toEqual(factors);
  });
});
