/// <reference lib="dom" />
/** The timeline shows a registered GSAP timeline's tweens and CSS animations under the element they move. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, REPO_ROOT, type TempProject } from "../support/project.js";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";

const INDEX_HTML = compositionHtml({
  id: "moves",
  duration: 1,
  css: `#box { position: absolute; width: 40px; height: 40px; background: #f00; }
  #dot { position: absolute; left: 100px; width: 20px; height: 20px; background: #0f0; animation: grow 0.3s linear 0.1s both; }
  @keyframes grow { from { transform: scale(0.5); } to { transform: scale(1); } }`,
  body: `<div id="box" data-start="0" data-duration="1" data-track-index="0"></div>
<div id="dot" data-start="0" data-duration="1" data-track-index="1"></div>`,
  after: `<script src="gsap.min.js"></script>
<script>
  const tl = gsap.timeline({ paused: true });
  tl.to("#box", { x: 200, duration: 0.5 }, 0.2);
  window.__timelines = { moves: tl };
</script>`,
});

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML }, { prefix: "compose-preview-animations-" });
  await copyFile(join(REPO_ROOT, "node_modules/gsap/dist/gsap.min.js"), join(project.dir, "gsap.min.js"));
  preview = await openPreview(project.dir);
  await preview.page.waitForSelector(".tween");
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

describe("animations on the timeline", () => {
  it("draws each tween and CSS animation as a segment in its own lane, right under the lane of the element it moves", async () => {
    const lanes = await preview.page.$$eval(".lane", (rows) =>
      rows.map((row) => {
        const track = row.querySelector(".lane-track")!.getBoundingClientRect();
        return {
          label: row.querySelector(".lane-label")!.textContent,
          segments: Array.from(row.querySelectorAll(".tween"), (bar) => {
            const box = bar.getBoundingClientRect();
            return { kind: (bar as HTMLElement).dataset.kind, left: box.left - track.left, width: box.width };
          }),
        };
      }),
    );
    expect(lanes.map((lane) => lane.label)).toEqual(["track 0", "#box › animation", "track 1", "#dot › animation"]);
    const scale = await preview.page.$eval('.clip[data-label="box"]', (clip) => clip.getBoundingClientRect().width / 1);
    const [tween] = lanes[1]!.segments;
    expect(tween!.kind).toBe("gsap");
    expect(tween!.left / scale).toBeCloseTo(0.2, 1);
    expect(tween!.width / scale).toBeCloseTo(0.5, 1);
    const [css] = lanes[3]!.segments;
    expect(css!.kind).toBe("css");
    expect(css!.left / scale).toBeCloseTo(0.1, 1);
    expect(css!.width / scale).toBeCloseTo(0.3, 1);
  });
});
