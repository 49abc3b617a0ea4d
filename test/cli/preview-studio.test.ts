/// <reference lib="dom" />
/**
 * The studio parts of compose preview in a real browser (Debian's chromium, playwright-core): the
 * timeline drawn from a composition with three tracks (relative starts resolved, an instance
 * expandable to its own lane), seeking by click, drag and keyboard, and zoom.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMedia, MEDIA_FILES } from "../support/test-media.js";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const INDEX_HTML = compositionHtml({
  id: "main",
  duration: 1,
  css: `.box { position: absolute; top: 40px; width: 60px; height: 60px; }
  #title { left: 20px; background: #ff0000; }
  #outro { left: 120px; background: #0000ff; }
  #card { position: absolute; left: 200px; top: 100px; width: 100px; height: 60px; }`,
  body: `<div id="title" class="box" data-start="0" data-duration="0.4" data-track-index="0"></div>
<div id="outro" class="box" data-start="title" data-duration="0.6" data-track-index="0"></div>
<audio id="music" src="${MEDIA_FILES.tone}" data-start="0.2" data-duration="0.5" data-track-index="1"></audio>
<div id="card" data-composition-id="card-a" data-composition-src="card.html" data-start="0.5" data-track-index="2"></div>`,
});

const CARD_HTML = compositionHtml({
  id: "card",
  width: 100,
  height: 60,
  duration: 0.5,
  body: `<div id="badge" data-start="0.1" data-duration="0.2" data-track-index="0" style="width: 20px; height: 20px; background: #00ff00"></div>`,
});

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  project = await createProject({ "index.html": INDEX_HTML, "card.html": CARD_HTML }, { prefix: "compose-studio-" });
  await generateMedia(project.dir, ["tone"]);
  preview = await openPreview(project.dir);
  await preview.page.goto(preview.url);
  await preview.settled(0);
  await preview.page.waitForSelector(".clip");
}, 120_000);

afterAll(async () => {
  await preview?.close();
  await project?.remove();
});

interface DrawnClip {
  label: string;
  kind: string;
  lane: string;
  left: number;
  width: number;
  title: string;
}

/** Each drawn clip with its lane's label and its box relative to the lane, in pixels. */
function drawnClips(): Promise<DrawnClip[]> {
  return preview.page.$$eval(".clip", (clips) =>
    clips.map((clip) => {
      const lane = clip.closest(".lane")!;
      const track = lane.querySelector(".lane-track")!.getBoundingClientRect();
      const box = clip.getBoundingClientRect();
      return {
        label: (clip as HTMLElement).dataset.label!,
        kind: (clip as HTMLElement).dataset.kind!,
        lane: lane.querySelector(".lane-label")!.textContent!,
        left: box.left - track.left,
        width: box.width,
        title: clip.getAttribute("title")!,
      };
    }),
  );
}

/** Pixels per second of the drawn timeline, from the 0.4 s title clip. */
async function pixelsPerSecond(): Promise<number> {
  const clips = await drawnClips();
  const title = clips.find((clip) => clip.label === "title")!;
  return title.width / 0.4;
}

async function clickAtTime(seconds: number): Promise<void> {
  const lane = (await preview.page.$(".lane-track"))!;
  const box = (await lane.boundingBox())!;
  await preview.page.mouse.click(box.x + seconds * (await pixelsPerSecond()), box.y + box.height / 2);
}

describe("the preview's timeline", () => {
  it("draws one lane per track, each clip at its resolved start and duration, labelled by id or composition id", async () => {
    const lanes = await preview.page.$$eval(".lane-label", (labels) => labels.map((label) => label.textContent));
    expect(lanes).toEqual(["track 0", "track 1", "track 2"]);
    const scale = await pixelsPerSecond();
    const clips = await drawnClips();
    const expected = [
      { label: "title", kind: "clip", lane: "track 0", start: 0, duration: 0.4 },
      // data-start="title": right after the title ends.
      { label: "outro", kind: "clip", lane: "track 0", start: 0.4, duration: 0.6 },
      { label: "music", kind: "audio", lane: "track 1", start: 0.2, duration: 0.5 },
      // Lasts as long as its composition, 0.5 s.
      { label: "card-a", kind: "composition", lane: "track 2", start: 0.5, duration: 0.5 },
    ];
    expect(clips.map(({ label, kind, lane }) => ({ label, kind, lane }))).toEqual(expected.map(({ label, kind, lane }) => ({ label, kind, lane })));
    for (const want of expected) {
      const clip = clips.find((candidate) => candidate.label === want.label)!;
      expect(Math.abs(clip.left - want.start * scale), `${want.label} left`).toBeLessThan(1.5);
      expect(Math.abs(clip.width - want.duration * scale), `${want.label} width`).toBeLessThan(1.5);
    }
  });

  it("shows start, duration, track and source when hovering a clip", async () => {
    await preview.page.hover('.clip[data-label="music"]');
    const text = await preview.page.textContent("#timeline-hover");
    expect(text).toBe(`music (audio), start 0.200 s, duration 0.500 s, track 1, source /${MEDIA_FILES.tone}`);
  });

  it("expands an instance into a lane of its own elements, in the composition's time", async () => {
    await preview.page.click('.clip[data-label="card-a"] .expand');
    const lanes = await preview.page.$$eval(".lane-label", (labels) => labels.map((label) => label.textContent));
    expect(lanes).toEqual(["track 0", "track 1", "track 2", "card-a › track 0"]);
    const scale = await pixelsPerSecond();
    const badge = (await drawnClips()).find((clip) => clip.label === "badge")!;
    expect(badge.lane).toBe("card-a › track 0");
    expect(Math.abs(badge.left - 0.6 * scale)).toBeLessThan(1.5);
    expect(Math.abs(badge.width - 0.2 * scale)).toBeLessThan(1.5);
  });

  it("seeks where it is clicked and dragged, and the playhead follows", async () => {
    await clickAtTime(0.5);
    await preview.settled(15);
    expect(await preview.page.inputValue("#scrubber")).toBe("15");
    // The outro (blue, from 0.4 s) shows; the title (until 0.4 s) does not.
    const visible = await preview.inComposition<string[]>(
      `(doc) => ["title", "outro"].filter((id) => doc.defaultView.getComputedStyle(doc.getElementById(id)).visibility !== "hidden" && doc.defaultView.getComputedStyle(doc.getElementById(id)).display !== "none")`,
    );
    expect(visible).toEqual(["outro"]);

    const lane = (await (await preview.page.$(".lane-track"))!.boundingBox())!;
    const scale = await pixelsPerSecond();
    await preview.page.mouse.move(lane.x + 0.2 * scale, lane.y + 5);
    await preview.page.mouse.down();
    await preview.page.mouse.move(lane.x + 0.7 * scale, lane.y + 5, { steps: 5 });
    await preview.page.mouse.up();
    await preview.settled(21);
    const playhead = (await (await preview.page.$("#playhead"))!.boundingBox())!;
    expect(Math.abs(playhead.x + playhead.width / 2 - (lane.x + 0.7 * scale))).toBeLessThan(2);
  });

  it("steps frames with the arrow keys and zooms with + and -", async () => {
    await preview.page.focus("#timeline");
    await preview.page.keyboard.press("ArrowRight");
    await preview.settled(22);
    await preview.page.keyboard.press("ArrowLeft");
    await preview.page.keyboard.press("ArrowLeft");
    await preview.settled(20);
    expect(await preview.page.getAttribute("#timeline", "aria-valuenow")).toBe("20");
    const before = await pixelsPerSecond();
    await preview.page.keyboard.press("+");
    expect((await pixelsPerSecond()) / before).toBeCloseTo(2, 3);
    await preview.page.keyboard.press("-");
    expect((await pixelsPerSecond()) / before).toBeCloseTo(1, 3);
  });
});
