/**
 * Every quality preset keeps within 1 dB of a perfect encode: the RGB PSNR of each output against
 * the lossless png-sequence of the same composition is at least that of the format's encoder at
 * the same preset working from the lossless frames with an exact conversion, minus 1 dB.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QualityName } from "@compose/core";
import { encodeIdeals, rgbPsnrs, type VideoFormat } from "../../bench/lib/fidelity.js";
import { limited, RENDER_HOOK_TIMEOUT_MS } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { renderInProcess } from "../support/render-in-process.js";

const FPS = 30;
const run = promisify(execFile);

/** Small coloured text on a light card, scrolling: what JPEG and chroma subsampling treat worst. */
const text = compositionHtml({
  id: "text",
  duration: 0.5,
  backdrop: "#f8fafc",
  css: `
    #title { position: absolute; left: 12px; top: 8px; font: bold 14px "DejaVu Sans", sans-serif; color: #b91c1c; }
    #body { position: absolute; left: 12px; top: 30px; width: 296px; font: 9px/12px "DejaVu Sans", sans-serif; color: #0f172a; }
    .tag { padding: 0 3px; border-radius: 2px; color: #fff; }`,
  body: `<div id="title">Release notes 4.2</div><div id="body">${Array.from({ length: 90 }, (_, i) =>
    i % 9 === 0 ? `<span class="tag" style="background:${["#2563eb", "#16a34a", "#9333ea", "#ea580c"][i % 4]}">tag${i}</span>` : `word${(i * 7) % 13}`,
  ).join(" ")}</div>`,
  after: `<script>
    document.getElementById("body").animate([{ transform: "translateY(0)" }, { transform: "translateY(-10px)" }], { duration: 500, fill: "both" });
  </script>`,
});

/** A gradient with rotating, fading boxes and a counter, like bench/motion at a small size. */
const motion = compositionHtml({
  id: "motion",
  duration: 0.5,
  backdrop: "linear-gradient(120deg, #0f172a 0%, #312e81 50%, #7c3aed 100%)",
  css: `
    .box { position: absolute; width: 30px; height: 30px; border-radius: 6px; box-shadow: 0 4px 10px rgba(0,0,0,.45); }
    #counter { position: absolute; right: 20px; top: 16px; font: bold 24px "DejaVu Sans", sans-serif; color: #fff; }`,
  body: `<div id="counter"></div>${Array.from(
    { length: 12 },
    (_, i) =>
      `<div class="box" style="left:${20 + (i % 6) * 50}px;top:${70 + Math.floor(i / 6) * 50}px;background:${["#f43f5e", "#f59e0b", "#10b981", "#3b82f6", "#a855f7", "#ec4899"][i % 6]}"></div>`,
  ).join("")}`,
  after: `<script>
    document.querySelectorAll(".box").forEach((box, i) => box.animate(
      [{ transform: "translateY(40px) rotate(-45deg)", opacity: 0 }, { transform: "translateY(0) rotate(90deg)", opacity: 1 }],
      { duration: 300, delay: i * 15, fill: "both", easing: "ease-out" }));
    const counter = document.getElementById("counter");
    window.__compose.onSeek?.((t) => { counter.textContent = String(Math.round(t * 1000)); });
    (function tick() { counter.textContent = String(Math.round(performance.now())); requestAnimationFrame(tick); })();
  </script>`,
});

/** A detailed video (ffmpeg's testsrc2, sharp coloured edges) under a caption. */
const video = compositionHtml({
  id: "video",
  duration: 0.5,
  backdrop: "#000",
  css: `#caption { position: absolute; left: 10px; bottom: 8px; font: 12px "DejaVu Sans", sans-serif; color: #fde047; }`,
  body: `<video src="clip.mp4" data-start="0" style="position:absolute;left:0;top:0;width:320px;height:180px"></video><div id="caption">testsrc2, 0.5 s</div>`,
});

const COMPOSITIONS = { text, motion, video };
type Name = keyof typeof COMPOSITIONS;

/** mp4 at every preset; the alpha formats, which capture lossless PNG, at the standard preset. */
const OUTPUTS: Array<{ format: VideoFormat; quality: QualityName }> = [
  { format: "mp4", quality: "draft" },
  { format: "mp4", quality: "standard" },
  { format: "mp4", quality: "high" },
  { format: "webm", quality: "standard" },
  { format: "mov", quality: "standard" },
];

const projects = {} as Record<Name, TempProject>;
/** RGB PSNR against the lossless frames, of our output and of the ideal encode, by "name format quality". */
const psnr = new Map<string, { ours: number; best: number }>();
const outputFile = (name: Name, format: VideoFormat, quality: QualityName) => projects[name].path(`${quality}.${format}`);
const losslessFrames = (name: Name) => projects[name].path("lossless");

beforeAll(async () => {
  for (const name of Object.keys(COMPOSITIONS) as Name[]) projects[name] = await createProject({ "index.html": COMPOSITIONS[name] });
  await run("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=320x180:rate=30:duration=0.5",
    "-c:v",
    "libx264",
    "-crf",
    "12",
    "-pix_fmt",
    "yuv420p",
    projects.video.path("clip.mp4"),
  ]);
  const jobs = (Object.keys(COMPOSITIONS) as Name[]).flatMap((name) => [
    { name, output: losslessFrames(name), options: { format: "png-sequence" } },
    ...OUTPUTS.map(({ format, quality }) => ({ name, output: outputFile(name, format, quality), options: { format, quality } })),
  ]);
  await limited(
    2,
    jobs.map(({ name, output, options }) => async () => {
      const { error } = await renderInProcess({ composition: projects[name].path("index.html"), output, options: { ...options, workers: 1 } });
      if (error !== undefined) throw new Error(`render ${JSON.stringify(options)} failed: ${error}`);
    }),
  );
  await limited(
    2,
    (Object.keys(COMPOSITIONS) as Name[]).map((name) => async () => {
      const ideals = OUTPUTS.map(({ format, quality }) => ({ format, quality, output: join(projects[name].dir, `ideal-${quality}.${format}`) }));
      await encodeIdeals(losslessFrames(name), FPS, ideals);
      const measured = await rgbPsnrs(
        [...OUTPUTS.map(({ format, quality }) => outputFile(name, format, quality)), ...ideals.map(({ output }) => output)],
        losslessFrames(name),
        FPS,
      );
      OUTPUTS.forEach(({ format, quality }, i) => psnr.set(`${name} ${format} ${quality}`, { ours: measured[i]!, best: measured[OUTPUTS.length + i]! }));
    }),
  );
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(async () => {
  for (const project of Object.values(projects)) await project.remove();
});

describe.each(Object.keys(COMPOSITIONS) as Name[])("%s", (name) => {
  it.each(OUTPUTS)("$format at $quality is within 1 dB of the ideal encode", ({ format, quality }) => {
    const { ours, best } = psnr.get(`${name} ${format} ${quality}`)!;
    expect(ours, `${name} ${format} ${quality}: ${ours.toFixed(2)} dB, ideal ${best.toFixed(2)} dB`).toBeGreaterThanOrEqual(best - 1);
  });
});
