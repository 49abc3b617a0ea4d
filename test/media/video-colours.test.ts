/**
 * A video in a composition shows the source's colours: six flat clips side by side, tagged
 * BT.709 or BT.601, full or limited range, and untagged SD and HD (read as browsers read them:
 * BT.601 below 720 lines, BT.709 from there), each within 3 of the source decoded by ffmpeg with
 * its tags, in every output format, a still (the one PNG --frame renders), and compose preview in
 * chromium.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { limited, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { colourDistance, decodeFrame, pixel, type Frame } from "../support/media.js";
import { openPreview } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { renderInProcess } from "../support/render-in-process.js";
import { createCacheDir } from "../support/test-media.js";

const run = promisify(execFile);
const EXACT = "accurate_rnd+full_chroma_int+bitexact";

interface Clip {
  size: string;
  colour: string;
  matrix: "bt601" | "bt709";
  range: "tv" | "pc";
  /** The stream's tags; none for an untagged clip. */
  tags: string[];
}

/**
 * Every clip but the untagged HD one is 320x180: a tag decides the matrix whatever the size, so
 * the BT.709 tags on SD clips also show that the size rule is not applied to a tagged source.
 */
const CLIPS: Record<string, Clip> = {
  "BT.709 limited": {
    size: "320x180",
    colour: "fc00a7",
    matrix: "bt709",
    range: "tv",
    tags: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"],
  },
  "BT.601 limited": {
    size: "320x180",
    colour: "3a7bd5",
    matrix: "bt601",
    range: "tv",
    tags: ["-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc", "smpte170m", "-color_range", "tv"],
  },
  "BT.709 full": {
    size: "320x180",
    colour: "e0ac69",
    matrix: "bt709",
    range: "pc",
    tags: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "pc"],
  },
  "BT.601 full": { size: "320x180", colour: "20c040", matrix: "bt601", range: "pc", tags: ["-colorspace", "bt470bg", "-color_range", "pc"] },
  "untagged SD": { size: "320x180", colour: "ff2000", matrix: "bt601", range: "tv", tags: [] },
  "untagged HD": { size: "1280x720", colour: "ff00f0", matrix: "bt709", range: "tv", tags: [] },
};
type ClipName = keyof typeof CLIPS;
const NAMES = Object.keys(CLIPS) as ClipName[];
const fileOf = (name: ClipName) => `${name.replace(/[ .]/g, "-")}.mp4`;

/** A 3x2 grid of 106x90 cells over the 320x180 frame; each cell is sampled at its centre. */
const centre = (i: number) => [(i % 3) * 106 + 53, Math.floor(i / 3) * 90 + 45] as const;

const html = compositionHtml({
  id: "clips",
  duration: 0.3,
  backdrop: "#000",
  body: NAMES.map((name, i) => {
    const [x, y] = [(i % 3) * 106, Math.floor(i / 3) * 90];
    return `<video src="${fileOf(name)}" data-start="0" muted style="position:absolute;left:${x}px;top:${y}px;width:106px;height:90px;object-fit:fill"></video>`;
  }).join("\n"),
});

const OUTPUTS = {
  mp4: { format: "mp4", output: "out.mp4" },
  webm: { format: "webm", output: "out.webm" },
  mov: { format: "mov", output: "out.mov" },
  "png-sequence": { format: "png-sequence", output: "frames" },
  // What --frame 6 asks of the renderer.
  "a still of frame 6": { format: "png-sequence", output: "still.png", frames: { start: 6, end: 7 }, still: true },
} as const;
type OutputName = keyof typeof OUTPUTS;

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const sourceColours = {} as Record<ClipName, number[]>;
let previewShot: Frame;

/** The clip's flat colour encoded as `clip` says, at CRF 10 so that it stays flat. */
async function encodeClip(clip: Clip, file: string): Promise<void> {
  await run("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `color=c=0x${clip.colour}:s=${clip.size}:r=30:d=0.4,format=rgb24`,
    "-vf",
    `scale=out_color_matrix=${clip.matrix}:out_range=${clip.range}:flags=${EXACT},format=${clip.range === "pc" ? "yuvj420p" : "yuv420p"}`,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "10",
    ...clip.tags,
    file,
  ]);
}

/** The centre of the source's frame 6, decoded exactly with its matrix and range. */
async function sourceColour(clip: Clip, file: string): Promise<number[]> {
  const { stdout } = await run(
    "ffmpeg",
    [
      "-hide_banner",
      "-loglevel",
      "error",
      "-i",
      file,
      "-vf",
      `select=eq(n\\,6),scale=in_color_matrix=${clip.matrix}:in_range=${clip.range}:flags=${EXACT},format=rgb24,crop=1:1:iw/2:ih/2`,
      "-frames:v",
      "1",
      "-f",
      "rawvideo",
      "pipe:1",
    ],
    { encoding: "buffer" },
  );
  return [...stdout.subarray(0, 3)];
}

beforeAll(async () => {
  project = await createProject({ "index.html": html }, { prefix: "compose-video-colours-" });
  cache = await createCacheDir();
  // The renders run in this process: its cache, until the file ends.
  vi.stubEnv("COMPOSE_CACHE_DIR", cache.dir);
  await Promise.all(NAMES.map((name) => encodeClip(CLIPS[name]!, project.path(fileOf(name)))));
  for (const name of NAMES) sourceColours[name] = await sourceColour(CLIPS[name]!, project.path(fileOf(name)));
  await limited(
    2,
    (Object.keys(OUTPUTS) as OutputName[]).map((name) => async () => {
      const { format, output, ...frames } = OUTPUTS[name];
      const result = await renderInProcess({
        composition: project.path("index.html"),
        output: project.path(output),
        options: { format, workers: 1 },
        ...frames,
      });
      if (result.error !== undefined) throw new Error(`render ${name} failed: ${result.error}`);
    }),
  );
  const preview = await openPreview(project.dir, { env: cache.env });
  try {
    await preview.scrubTo(6);
    const shot = PNG.sync.read(await preview.page.locator("#composition").screenshot());
    previewShot = { width: shot.width, height: shot.height, data: shot.data };
  } finally {
    await preview.close();
  }
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(async () => {
  vi.unstubAllEnvs();
  await project?.remove();
  await cache?.remove();
});

async function frameOf(output: OutputName): Promise<Frame> {
  const file = project.path(OUTPUTS[output].output);
  if (output === "png-sequence") return decodeFrame(`${file}/frame_000006.png`);
  if (output === "a still of frame 6") return decodeFrame(file);
  return decodeFrame(file, 6, { asTagged: true, vp9Alpha: output === "webm" });
}

function expectSourceColours(frame: Frame): void {
  const scale = frame.width / 320;
  const found = NAMES.map((_, i) => pixel(frame, Math.floor(centre(i)[0] * scale), Math.floor(centre(i)[1] * scale)).slice(0, 3));
  const report = NAMES.map((name, i) => `${name}: (${sourceColours[name]!.join(",")}) -> (${found[i]!.join(",")})`).join("; ");
  expect(Math.max(...NAMES.map((name, i) => colourDistance(found[i]!, sourceColours[name]!))), report).toBeLessThanOrEqual(3);
}

describe("a flat clip shows the source's colour within 3", () => {
  it.each(Object.keys(OUTPUTS) as OutputName[])("in %s", async (output) => {
    expectSourceColours(await frameOf(output));
  });

  it("in compose preview (chromium)", () => {
    expectSourceColours(previewShot);
  });
});
