import { describe, expect, it } from "vitest";
import { extractionArgs, type FrameExtraction } from "./extract-frames.js";

const job = (over: Partial<FrameExtraction> = {}): FrameExtraction => ({
  input: { location: "clip.mp4" },
  sourceId: "abc",
  fps: 30,
  mediaStart: 0,
  duration: 1,
  playbackRate: 1,
  image: "jpeg",
  hdr: undefined,
  colour: { matrix: "bt709", range: "tv" },
  ...over,
});

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

const EXACT = "flags=accurate_rnd+full_chroma_int+bitexact";
const UNTAGGED = "setparams=color_primaries=unknown:color_trc=unknown:colorspace=unknown";
/** RGB exactly as the source's tags say, then JFIF's YCbCr. */
const TO_JPEG = `scale=in_color_matrix=bt709:in_range=tv:${EXACT},format=gbrp16le,scale=out_color_matrix=bt601:out_range=pc:${EXACT},format=yuvj444p,${UNTAGGED}`;

describe("extractionArgs", () => {
  it.each<[string, Partial<FrameExtraction>, { vf: string; frames: string; seek?: string; quality?: string }]>([
    ["a second of a BT.709 source at 30 fps as 4:4:4 JFIF JPEG", {}, { vf: `setpts=(PTS-STARTPTS)/1,fps=30,${TO_JPEG}`, frames: "30", quality: "2" }],
    [
      "from 2.5 s into a full-range BT.601 source, at half speed, as RGBA PNG without colour chunks",
      { mediaStart: 2.5, playbackRate: 0.5, image: "png", fps: 24, duration: 0.5, colour: { matrix: "bt601", range: "pc" } },
      { vf: `setpts=(PTS-STARTPTS)/0.5,fps=24,scale=in_color_matrix=bt601:in_range=pc:${EXACT},format=rgba,${UNTAGGED}`, frames: "12", seek: "2.5" },
    ],
    [
      "a duration that is not a whole number of frames rounds up",
      { duration: 1.01 },
      { vf: `setpts=(PTS-STARTPTS)/1,fps=30,${TO_JPEG}`, frames: "31", quality: "2" },
    ],
  ])("%s", (_, over, expected) => {
    const args = extractionArgs(job(over), "frames/frame_%06d.jpg");
    expect(after(args, "-vf")).toBe(expected.vf);
    expect(after(args, "-frames:v")).toBe(expected.frames);
    expect(args.includes("-ss") ? after(args, "-ss") : undefined).toBe(expected.seek);
    expect(args.includes("-q:v") ? after(args, "-q:v") : undefined).toBe(expected.quality);
    expect(after(args, "-start_number")).toBe("0");
    expect(args.at(-1)).toBe("frames/frame_%06d.jpg");
    // -ss before -i seeks the input, so the first frame is the one at mediaStart.
    if (expected.seek) expect(args.indexOf("-ss")).toBeLessThan(args.indexOf("-i"));
  });

  it.each<[string, FrameExtraction["input"], string[]]>([
    ["a file", { location: "clip.mp4" }, ["-i", "clip.mp4"]],
    [
      "a URL through the policy proxy",
      { location: "https://cdn.example.com/a.mp4", proxy: "http://127.0.0.1:4100" },
      ["-http_proxy", "http://127.0.0.1:4100", "-i", "https://cdn.example.com/a.mp4"],
    ],
  ])("opens %s", (_, input, opening) => {
    const args = extractionArgs(job({ input, mediaStart: 1 }), "f_%06d.jpg");
    const at = args.indexOf(opening[0]!);
    expect(args.slice(at, at + opening.length)).toEqual(opening);
    expect(args.indexOf("-ss")).toBeLessThan(at);
  });

  it("tone-maps an HDR source to BT.709 before anything else, and reads the result as limited-range BT.709", () => {
    const vf = after(extractionArgs(job({ hdr: "pq", colour: { matrix: "bt2020", range: "tv" } }), "f_%06d.jpg"), "-vf")!;
    expect(vf.startsWith("zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,setpts=")).toBe(true);
    expect(vf.endsWith(TO_JPEG)).toBe(true);
  });
});
