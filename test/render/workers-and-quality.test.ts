/**
 * --workers 2 splits the frames between two browsers and must give the same frames as one;
 * rendering is deterministic; --quality, --crf and --video-bitrate change the encoding.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, type CliResult, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { decodeAllFrames, ffprobe, hex, isColour, meanAbsoluteDifference, videoStream, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const FRAMES = 15; // 0.5 s at 30 fps

/**
 * Moving box (CSS animation), a colour set by a timer at 0.3 s (frame 9, in the second
 * worker's range) and a noise field drawn from each frame's timestamp: detail that makes the
 * encoder's settings show in the file size, yet a pure function of the frame's time.
 */
const html = compositionHtml({
  id: "work",
  duration: 0.5,
  backdrop: "#000000",
  css: `
    #box { position: absolute; left: 0; top: 10px; width: 30px; height: 30px; background: #00ff00; animation: go 0.5s linear both; }
    @keyframes go { to { transform: translateX(250px); } }
    #timer { position: absolute; left: 10px; top: 50px; width: 30px; height: 30px; background: #ff0000; }
    #noise { position: absolute; left: 0; top: 90px; }
  `,
  body: `<div id="box"></div><div id="timer"></div><canvas id="noise" width="320" height="90"></canvas>`,
  after: `<script>
    setTimeout(() => { document.getElementById("timer").style.background = "#0000ff"; }, 300);
    const ctx = document.getElementById("noise").getContext("2d");
    function draw(timestamp) {
      // 4x4 blocks of grey noise, reseeded from the frame's timestamp.
      let seed = (Math.round(timestamp) * 2654435761) >>> 0;
      for (let y = 0; y < 90; y += 4) {
        for (let x = 0; x < 320; x += 4) {
          seed = (seed * 1664525 + 1013904223) >>> 0;
          const v = seed >>> 24;
          ctx.fillStyle = "rgb(" + v + "," + v + "," + v + ")";
          ctx.fillRect(x, y, 4, 4);
        }
      }
      requestAnimationFrame(draw);
    }
    requestAnimationFrame(draw);
  </script>`,
});

interface Variant {
  name: string;
  args: string[];
  output: string;
}

const VARIANTS: Variant[] = [
  { name: "png-w1", args: ["--format", "png-sequence", "--workers", "1"], output: "png-w1" },
  { name: "png-w2", args: ["--format", "png-sequence", "--workers", "2"], output: "png-w2" },
  { name: "png-w1-again", args: ["--format", "png-sequence", "--workers", "1"], output: "png-w1-again" },
  { name: "mp4-w1", args: ["--workers", "1"], output: "w1.mp4" },
  { name: "mp4-w2", args: ["--workers", "2"], output: "w2.mp4" },
  { name: "draft", args: ["--quality", "draft", "--workers", "1"], output: "draft.mp4" },
  { name: "high", args: ["--quality", "high", "--workers", "1"], output: "high.mp4" },
  { name: "crf40", args: ["--crf", "40", "--workers", "1"], output: "crf40.mp4" },
  { name: "rate100k", args: ["--video-bitrate", "100k", "--workers", "1"], output: "rate100k.mp4" },
];

let project: TempProject;
const results = new Map<string, CliResult>();

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  await limited(
    2,
    VARIANTS.map((variant) => async () => {
      results.set(variant.name, await render([project.dir, ...variant.args, "--output", project.path(variant.output)]));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function output(name: string): string {
  const result = results.get(name)!;
  expect(result.stderr, `${name} stderr`).toBe("");
  expect(result.code, `${name} exit code`).toBe(0);
  return project.path(VARIANTS.find((variant) => variant.name === name)!.output);
}

async function sequenceFiles(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir)).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name))] as const)));
}

async function size(name: string): Promise<number> {
  return (await stat(output(name))).size;
}

describe("workers", () => {
  it("png-sequence with --workers 2 is byte-identical to --workers 1, frame by frame", async () => {
    const one = await sequenceFiles(output("png-w1"));
    const two = await sequenceFiles(output("png-w2"));
    expect([...two.keys()]).toEqual([...one.keys()]);
    expect(one.size).toBe(FRAMES);
    for (const [name, bytes] of one) expect(two.get(name)!.equals(bytes), `${name} differs`).toBe(true);
  });

  it("the frames are those of the composition: the box moves and the timer fires at frame 9 in both", async () => {
    for (const name of ["png-w1", "png-w2"]) {
      const frames = await decodeAllFrames(join(output(name), "frame_%06d.png"));
      const timerColour = (frame: Frame) => (isColour(frame, 25, 65, hex("#ff0000")) ? "red" : isColour(frame, 25, 65, hex("#0000ff")) ? "blue" : "?");
      expect(frames.map(timerColour)).toEqual([...Array(9).fill("red"), ...Array(6).fill("blue")]);
      // 250 px in 0.5 s: frame 12 is at 200 px.
      expect(isColour(frames[12]!, 215, 25, hex("#00ff00"))).toBe(true);
      expect(isColour(frames[0]!, 215, 25, hex("#00ff00"))).toBe(false);
    }
  });

  it("mp4 with --workers 2 has the same 15 frames as --workers 1, up to encoding noise", async () => {
    const [one, two] = await Promise.all([decodeAllFrames(output("mp4-w1")), decodeAllFrames(output("mp4-w2"))]);
    expect(one).toHaveLength(FRAMES);
    expect(two).toHaveLength(FRAMES);
    const differences = one.map((frame, n) => meanAbsoluteDifference(frame, two[n]!));
    expect(Math.max(...differences), `per-frame mean differences: ${differences.map((d) => d.toFixed(2)).join(" ")}`).toBeLessThan(3);
    const probe = await ffprobe(output("mp4-w2"), { countFrames: true });
    expect(Number(videoStream(probe).nb_read_frames)).toBe(FRAMES);
    expect(Number(probe.format.duration)).toBeCloseTo(0.5, 2);
  });

  it("the same png-sequence rendered twice is byte-identical", async () => {
    const first = await sequenceFiles(output("png-w1"));
    const again = await sequenceFiles(output("png-w1-again"));
    expect([...again.keys()]).toEqual([...first.keys()]);
    for (const [name, bytes] of first) expect(again.get(name)!.equals(bytes), `${name} differs`).toBe(true);
  });
});

describe("encoding quality", () => {
  let referenceFrames: Promise<Frame[]> | undefined;
  /** Mean absolute difference of a decoded mp4 from the lossless png-sequence of the same frames. */
  async function encodingError(name: string): Promise<number> {
    referenceFrames ??= decodeAllFrames(join(output("png-w1"), "frame_%06d.png"));
    const [reference, decoded] = await Promise.all([referenceFrames, decodeAllFrames(output(name))]);
    expect(decoded).toHaveLength(reference.length);
    return decoded.reduce((sum, frame, n) => sum + meanAbsoluteDifference(frame, reference[n]!), 0) / decoded.length;
  }

  it("--quality draft (CRF 28) loses more than standard (CRF 18), which loses more than high (CRF 15)", async () => {
    const [draft, standard, high] = await Promise.all([encodingError("draft"), encodingError("mp4-w1"), encodingError("high")]);
    expect(draft, `errors: draft ${draft}, standard ${standard}, high ${high}`).toBeGreaterThan(standard * 1.2);
    expect(standard, `errors: draft ${draft}, standard ${standard}, high ${high}`).toBeGreaterThan(high);
    const [draftSize, highSize] = [await size("draft"), await size("high")];
    expect(draftSize).not.toBe(highSize);
  });

  it("--crf 40 gives a smaller, lossier file than the standard preset (CRF 18)", async () => {
    const [crf40, standard] = [await size("crf40"), await size("mp4-w1")];
    expect(crf40).toBeLessThan(standard * 0.5);
    const [lossy, preset] = await Promise.all([encodingError("crf40"), encodingError("mp4-w1")]);
    expect(lossy, `errors: crf40 ${lossy}, standard ${preset}`).toBeGreaterThan(preset * 1.5);
  });

  it("--video-bitrate 100k encodes near that rate, far below the standard preset", async () => {
    const [rate100k, standard] = [await size("rate100k"), await size("mp4-w1")];
    expect(rate100k).toBeLessThan(standard * 0.5);
    // 15 frames of noise cannot all fit in 100 kbit/s; the first frame alone overshoots, hence the margin.
    const bitRate = Number((await ffprobe(output("rate100k"))).format.bit_rate);
    expect(bitRate).toBeLessThan(300_000);
    expect(bitRate).toBeGreaterThan(30_000);
  });
});
