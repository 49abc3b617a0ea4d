import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputFormat } from "@compose/core";
import { REPEAT, type FrameResult } from "../common/frame-result.js";
import { SEQUENCE_FRAME_PATTERN } from "../output/output-names.js";
import { encoderSink } from "./encoder-sink.js";

const run = promisify(execFile);
const COLOURS = { red: "ff0000", green: "00ff00", blue: "0000ff" } as const;
type Colour = keyof typeof COLOURS;

let dir: string;
const images = {} as Record<"jpeg" | "png", Record<Colour, Buffer>>;

async function still(colour: Colour, codec: "mjpeg" | "png"): Promise<Buffer> {
  const { stdout } = await run(
    "ffmpeg",
    ["-v", "error", "-f", "lavfi", "-i", `color=0x${COLOURS[colour]}:s=64x36`, "-frames:v", "1", "-c:v", codec, "-f", "image2pipe", "-"],
    { encoding: "buffer" },
  );
  return stdout;
}

/** The colour of every frame of a video or an image sequence, by its nearest primary. */
async function frameColours(input: string[]): Promise<Colour[]> {
  const { stdout } = await run("ffmpeg", ["-v", "error", ...input, "-vf", "scale=1:1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], {
    encoding: "buffer",
  });
  const colours: Colour[] = [];
  for (let i = 0; i < stdout.length; i += 3) {
    const [r, g, b] = [stdout[i]!, stdout[i + 1]!, stdout[i + 2]!];
    colours.push(r > g && r > b ? "red" : g > b ? "green" : "blue");
  }
  return colours;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "compose-frame-sink-"));
  for (const [format, codec] of [
    ["jpeg", "mjpeg"],
    ["png", "png"],
  ] as const) {
    images[format] = { red: await still("red", codec), green: await still("green", codec), blue: await still("blue", codec) };
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function frameOf(source: Record<Colour, Buffer>, frame: Colour | "="): FrameResult {
  return frame === "=" ? REPEAT : { kind: "image", data: source[frame] };
}

/** Writes a sequence of frames where "=" repeats the previous one. */
async function encode(format: OutputFormat, fps: number, frames: (Colour | "=")[]): Promise<Colour[]> {
  const settings = { format, fps, width: 64, height: 36, quality: "draft" as const };
  const source = images[format === "mp4" ? "jpeg" : "png"];
  if (format === "png-sequence") {
    const directory = join(dir, `sequence-${fps}-${frames.length}`);
    await mkdir(directory);
    const sink = encoderSink(settings, { kind: "sequence", directory, firstFrame: 0 }, frames.length);
    for (const frame of frames) await sink.take(frameOf(source, frame));
    await sink.finish();
    expect(await readdir(directory)).toHaveLength(frames.length);
    return frameColours(["-i", join(directory, SEQUENCE_FRAME_PATTERN)]);
  }
  const path = join(dir, `out-${fps}-${frames.length}.${format}`);
  const sink = encoderSink(settings, { kind: "file", path }, frames.length);
  for (const frame of frames) await sink.take(frameOf(source, frame));
  await sink.finish();
  return frameColours(["-i", path]);
}

function expand(frames: (Colour | "=")[]): Colour[] {
  const colours: Colour[] = [];
  for (const frame of frames) colours.push(frame === "=" ? colours.at(-1)! : frame);
  return colours;
}

describe("encoderSink", () => {
  const cases: [string, (Colour | "=")[]][] = [
    ["one frame", ["red"]],
    ["every frame new", ["red", "green", "blue", "red"]],
    ["repeats between and after changes", ["red", "=", "=", "green", "blue", "=", "=", "=", "red", "="]],
  ];
  for (const fps of [24, 30, 60]) {
    for (const [name, frames] of cases) {
      it(`mp4 at ${fps} fps, ${name}: each frame shows its image, no frame more or less`, async () => {
        expect(await encode("mp4", fps, frames)).toEqual(expand(frames));
      });
    }
  }

  it("png-sequence: a repeated frame is a file of its own with the previous image", async () => {
    const frames: (Colour | "=")[] = ["blue", "=", "red", "=", "="];
    expect(await encode("png-sequence", 30, frames)).toEqual(expand(frames));
  });

  it("refuses to repeat before any image", async () => {
    const sink = encoderSink({ format: "mp4", fps: 30, width: 64, height: 36, quality: "draft" }, { kind: "file", path: join(dir, "never.mp4") }, 1);
    await expect(sink.take(REPEAT)).rejects.toThrow(/first frame/);
    sink.kill();
  });
});
