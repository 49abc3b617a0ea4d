/**
 * Flat colours come out as the page drew them in every format: a player that reads the file's
 * own colour tags gets each channel back within 1 of the exact value, also when workers'
 * chunks are joined into one file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { colourDistance, decodeFrame, ffprobe, hex, pixel, videoStream } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const COLOURS = ["#111111", "#808080", "#ffffff", "#ff0000", "#00ff00", "#0000ff", "#e0ac69", "#3a7bd5"] as const;
/** A 4x2 grid of patches covering the whole 320x180 frame; each patch is sampled at its centre. */
const PATCH = { width: 80, height: 90 };
const centre = (i: number) => [(i % 4) * PATCH.width + PATCH.width / 2, Math.floor(i / 4) * PATCH.height + PATCH.height / 2] as const;

const html = compositionHtml({
  id: "colours",
  duration: 0.4,
  css: `.patch { position: absolute; width: ${PATCH.width}px; height: ${PATCH.height}px; }`,
  body: COLOURS.map((colour, i) => {
    const [x, y] = [(i % 4) * PATCH.width, Math.floor(i / 4) * PATCH.height];
    return `<div class="patch" style="left:${x}px;top:${y}px;background:${colour}"></div>`;
  }).join("\n"),
});

const RUNS = {
  mp4: { args: ["--format", "mp4", "--workers", "1"], output: "out.mp4" },
  "mp4 in two chunks": { args: ["--format", "mp4", "--workers", "2"], output: "chunked.mp4" },
  "mp4 draft": { args: ["--format", "mp4", "--workers", "1", "--quality", "draft"], output: "draft.mp4" },
  mov: { args: ["--format", "mov", "--workers", "1"], output: "out.mov" },
  "mov in two chunks": { args: ["--format", "mov", "--workers", "2"], output: "chunked.mov" },
  webm: { args: ["--format", "webm", "--workers", "1"], output: "out.webm" },
  "webm in two chunks": { args: ["--format", "webm", "--workers", "2"], output: "chunked.webm" },
  "png-sequence": { args: ["--format", "png-sequence", "--workers", "1"], output: "frames" },
} as const;
type Run = keyof typeof RUNS;

/** What each video format's tags must say: what browsers play right for mp4 and webm, BT.709 for ProRes. */
const TAGS = {
  mp4: { pix_fmt: "yuv420p", color_space: "smpte170m", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" },
  mov: { color_space: "bt709", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" },
  webm: { pix_fmt: "yuv420p", color_space: "smpte170m", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" },
};

let project: TempProject;
const results = {} as Record<Run, CliResult>;

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  await limited(
    2,
    (Object.keys(RUNS) as Run[]).map((run) => async () => {
      results[run] = await render([project.dir, ...RUNS[run].args, "--output", project.path(RUNS[run].output)]);
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

async function decodedFrame(run: Run, index: number) {
  const output = project.path(RUNS[run].output);
  if (run === "png-sequence") return decodeFrame(`${output}/frame_${String(index).padStart(6, "0")}.png`);
  return decodeFrame(output, index, { asTagged: true, vp9Alpha: run.startsWith("webm") });
}

describe.each(Object.keys(RUNS) as Run[])("%s", (run) => {
  it("decodes every flat colour within 1 of its exact value, in the first and last frame", async () => {
    expect(results[run].stderr).toBe("");
    expect(results[run].code).toBe(0);
    for (const index of [0, 11]) {
      const frame = await decodedFrame(run, index);
      const found = COLOURS.map((_, i) => pixel(frame, ...centre(i)).slice(0, 3));
      const worst = Math.max(...COLOURS.map((colour, i) => colourDistance(found[i]!, hex(colour))));
      expect(worst, `frame ${index}: ${COLOURS.map((c, i) => `${c} -> (${found[i]!.join(",")})`).join(" ")}`).toBeLessThanOrEqual(1);
    }
  });

  it.skipIf(run === "png-sequence")("has the pixel format, and is tagged with the matrix, primaries, transfer and range of its pixels", async () => {
    expect(results[run].code).toBe(0);
    const format = run.split(" ")[0] as keyof typeof TAGS;
    const stream = videoStream(await ffprobe(project.path(RUNS[run].output))) as unknown as Record<string, string>;
    const tags = Object.fromEntries(Object.keys(TAGS[format]).map((key) => [key, stream[key]]));
    expect(tags).toEqual(TAGS[format]);
  });
});
