/// <reference lib="dom" />
/**
 * A frame in compose preview is the frame compose render makes (the same runtime, the same
 * clock): three frames are rendered as PNGs with `compose render --frame N` and compared pixel by
 * pixel with a screenshot of the preview's composition frame, shown at scale 1 in Chromium (the
 * stage is snapped to whole pixels so that the screenshot is not resampled).
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

/**
 * 320x180, 1 s: a gradient backdrop, a box moved and rotated by a Web Animation, one faded by a
 * timer-driven script, a clip that starts after another (relative start) and a sub-composition.
 */
const INDEX_HTML = compositionHtml({
  id: "frames",
  duration: 1,
  backdrop: "linear-gradient(90deg, #203040, #a04060)",
  css: `#spin { position: absolute; left: 20px; top: 40px; width: 60px; height: 60px; background: #f0c020; }
  #fade { position: absolute; left: 120px; top: 40px; width: 60px; height: 60px; background: #20c0f0; }
  #late { position: absolute; left: 200px; top: 120px; width: 80px; height: 30px; background: #ffffff; }
  #card { position: absolute; left: 200px; top: 20px; width: 100px; height: 60px; }`,
  body: `<div id="spin"></div><div id="fade"></div>
<div id="early" data-start="0" data-duration="0.4"></div>
<div id="late" data-start="early" data-duration="0.6"></div>
<div id="card" data-composition-id="card-a" data-composition-src="card.html" data-start="0.2"></div>`,
  after: `<script>
  document.getElementById("spin").animate(
    [{ transform: "translateX(0px) rotate(0deg)" }, { transform: "translateX(60px) rotate(90deg)" }],
    { duration: 1000, easing: "ease-in-out", fill: "both" },
  );
  const fade = document.getElementById("fade");
  let step = 0;
  setInterval(() => { step++; fade.style.opacity = String(Math.max(0, 1 - step / 40)); }, 20);
</script>`,
});

const CARD_HTML = compositionHtml({
  id: "card",
  width: 100,
  height: 60,
  duration: 0.8,
  backdrop: "#40a040",
  body: `<div id="bar" style="position: absolute; left: 0; top: 20px; width: 20px; height: 20px; background: #102010"></div>`,
  after: `<script>document.getElementById("bar").animate([{ left: "0px" }, { left: "80px" }], { duration: 800, fill: "both" });</script>`,
});

const FRAMES = [0, 13, 27];
/** The opaque colours of the boxes, the card and its bar: drawn without dithering. */
const SOLID_COLOURS = [
  [0xf0, 0xc0, 0x20],
  [0x20, 0xc0, 0xf0],
  [0xff, 0xff, 0xff],
  [0x40, 0xa0, 0x40],
  [0x10, 0x20, 0x10],
];

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML, "card.html": CARD_HTML }, { prefix: "compose-preview-frames-" });
  preview = await openPreview(project.dir);
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

function decodePng(buffer: Buffer): PNG {
  return PNG.sync.read(buffer);
}

describe("a frame in compose preview", () => {
  it.each(FRAMES)(
    "equals frame %i of compose render: solid colours exactly, gradients within one step",
    async (frame) => {
      // Under renders/, which the preview does not watch: a file written elsewhere in the project reloads the page.
      const output = join(project.dir, "renders", `frame-${frame}.png`);
      const rendered = await runCli(["render", project.dir, "--frame", String(frame), "-o", output], { timeoutMs: 120_000 });
      expect(rendered.code, rendered.stderr).toBe(0);

      await preview.scrubTo(frame);
      expect(await preview.page.$eval("#stage", (stage) => stage.dataset.scale)).toBe("1");
      const shot = decodePng(await preview.page.locator("#composition").screenshot());
      const png = decodePng(await readFile(output));
      expect([shot.width, shot.height]).toEqual([png.width, png.height]);

      // Solid colours match exactly. Colours between them (the gradient, and what shows through
      // the fading box) differ by at most one step: the rasterizer dithers gradients differently
      // under the render's deterministic BeginFrame capture than in an interactive browser. A frame
      // off in time would move hard edges between colours far more than one step apart.
      const solid = (x: number, y: number) => [0, 1, 2].map((c) => png.data[(y * png.width + x) * 4 + c]);
      let largest = 0;
      let solidDiffering = 0;
      for (let y = 0; y < png.height; y++) {
        for (let x = 0; x < png.width; x++) {
          const i = (y * png.width + x) * 4;
          const difference = Math.max(...[0, 1, 2].map((c) => Math.abs(png.data[i + c]! - shot.data[i + c]!)));
          largest = Math.max(largest, difference);
          if (difference > 0 && SOLID_COLOURS.some((colour) => colour.every((value, c) => value === solid(x, y)[c]))) solidDiffering++;
        }
      }
      let kept = "";
      if (solidDiffering > 0 || largest > 1) {
        // Kept for a look when the frames differ.
        kept = await mkdtemp(join(tmpdir(), "compose-preview-frames-diff-"));
        await writeFile(join(kept, `preview-frame-${frame}.png`), PNG.sync.write(shot));
        await writeFile(join(kept, `render-frame-${frame}.png`), PNG.sync.write(png));
      }
      expect(solidDiffering, `both frames kept in ${kept}`).toBe(0);
      expect(largest, `both frames kept in ${kept}`).toBeLessThanOrEqual(1);
    },
    180_000,
  );
});
