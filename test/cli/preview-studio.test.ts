/// <reference lib="dom" />
/**
 * The studio parts of compose preview in a real browser (Debian's chromium, playwright-core): the
 * timeline drawn from a composition with three tracks (relative starts resolved, an instance
 * expandable to its own lane), seeking by click, drag and keyboard, and zoom; rendering from the
 * page to a finished mp4 with the page's variable values (top level and per instance), refusals
 * and cancel.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeFrame, ffprobe, hex, isColour, videoStream } from "../support/media.js";
import { generateMedia, MEDIA_FILES } from "../support/test-media.js";
import { openPreview, type PreviewSession } from "../support/preview-page.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const INDEX_HTML = compositionHtml({
  id: "main",
  duration: 1,
  variables: [{ id: "titleColor", type: "color", label: "Title colour", default: "#ff0000" }],
  css: `.box { position: absolute; top: 40px; width: 60px; height: 60px; }
  #title { left: 20px; background: #ff0000; }
  #outro { left: 120px; background: #0000ff; }
  #card { position: absolute; left: 200px; top: 100px; width: 100px; height: 60px; }`,
  body: `<div id="title" class="box" data-start="0" data-duration="0.4" data-track-index="0"></div>
<div id="outro" class="box" data-start="title" data-duration="0.6" data-track-index="0"></div>
<audio id="music" src="${MEDIA_FILES.tone}" data-start="0.2" data-duration="0.5" data-track-index="1"></audio>
<div id="card" data-composition-id="card-a" data-composition-src="card.html" data-start="0.5" data-track-index="2"
     data-variable-values='{"tint": "#ffff00"}'></div>`,
  after: `<script>document.getElementById("title").style.background = __compose.getVariables().titleColor ?? "#ff0000";</script>`,
});

const CARD_HTML = compositionHtml({
  id: "card",
  width: 100,
  height: 60,
  duration: 0.5,
  variables: [{ id: "tint", type: "color", label: "Tint", default: "#0000ff" }],
  after: `<script>document.getElementById("tint").style.background = __compose.getVariables().tint;</script>`,
  body: `<div id="tint" style="position: absolute; inset: 0"></div>
<div id="badge" data-start="0.1" data-duration="0.2" data-track-index="0" style="width: 20px; height: 20px; background: #00ff00"></div>`,
});

const USERS_FILE = "<p>the user's own</p>";

let project: TempProject;
let preview: PreviewSession;

beforeAll(async () => {
  // A file of the user's, named as a copy of the entry for a render might be.
  project = await createProject({ "index.html": INDEX_HTML, "card.html": CARD_HTML, "index.preview-render-1.html": USERS_FILE }, { prefix: "compose-studio-" });
  await generateMedia(project.dir, ["tone"]);
  preview = await openPreview(project.dir);
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

describe("the page with the keyboard alone", () => {
  /** Presses Tab until `selector` has the focus; false when it is not reached in 60 presses. */
  async function tabTo(selector: string): Promise<boolean> {
    for (let i = 0; i < 60; i++) {
      await preview.page.keyboard.press("Tab");
      if (await preview.page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return true;
    }
    return false;
  }

  it("reaches the timeline, seeks with Home and End, and folds an instance with Enter", async () => {
    await preview.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await tabTo("#timeline")).toBe(true);
    await preview.page.keyboard.press("End");
    await preview.settled(29);
    await preview.page.keyboard.press("Home");
    await preview.settled(0);
    const lanes = () => preview.page.$$eval(".lane-label", (labels) => labels.length);
    const before = await lanes();
    expect(await tabTo('.clip[data-label="card-a"] .expand')).toBe(true);
    await preview.page.keyboard.press("Enter");
    expect(await lanes()).toBe(before === 4 ? 3 : 4);
    expect(await preview.page.evaluate(() => document.activeElement?.closest(".clip")?.getAttribute("data-label"))).toBe("card-a");
    await preview.page.keyboard.press("Enter");
    expect(await lanes()).toBe(before);
  });

  it("reaches the render button", async () => {
    expect(await tabTo("#render-start")).toBe(true);
  });
});

describe("variables of sub-composition instances", () => {
  it("are edited per instance, starting from the host's data-variable-values", async () => {
    expect(await preview.page.textContent("#instance-variables legend")).toBe("card-a (card.html)");
    expect(await preview.page.inputValue("#instance-card-a-tint")).toBe("#ffff00");
    // Only the instance is mounted again: the composition's page stays, so a mark left in it stays too.
    await preview.inComposition(`(doc) => { doc.defaultView.keptAcrossTheEdit = true; }`);
    await preview.page.$eval("#instance-card-a-tint", (input: HTMLInputElement) => {
      input.value = "#ff00ff";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await preview.page.waitForFunction(() => JSON.parse(document.getElementById("stage")!.dataset.config || "{}").instances?.["card-a"]?.tint === "#ff00ff");
    await preview.settled();
    const tint = await preview.inComposition<string>(
      `(doc) => { const inner = doc.querySelector("#card iframe").contentDocument; return inner.defaultView.getComputedStyle(inner.getElementById("tint")).backgroundColor; }`,
    );
    expect(tint).toBe("rgb(255, 0, 255)");
    expect(await preview.inComposition<boolean>(`(doc) => doc.defaultView.keptAcrossTheEdit === true`)).toBe(true);
  });

  it("mounts again only the instances of a saved instance file, with their values", async () => {
    await writeFile(project.path("card.html"), CARD_HTML.replace("</body>", `<p id="saved">saved</p></body>`));
    await preview.page.waitForFunction(
      () => {
        const inner = (document.getElementById("composition") as HTMLIFrameElement | null)?.contentDocument?.querySelector<HTMLIFrameElement>(
          "#card iframe",
        )?.contentDocument;
        return (
          document.getElementById("stage")!.dataset.pending === "false" &&
          inner?.getElementById("saved") !== null &&
          inner?.getElementById("saved") !== undefined
        );
      },
      undefined,
      { timeout: 20_000 },
    );
    const tint = await preview.inComposition<string>(
      `(doc) => { const inner = doc.querySelector("#card iframe").contentDocument; return inner.defaultView.getComputedStyle(inner.getElementById("tint")).backgroundColor; }`,
    );
    expect(tint, "the edited value stays").toBe("rgb(255, 0, 255)");
    expect(await preview.inComposition<boolean>(`(doc) => doc.defaultView.keptAcrossTheEdit === true`)).toBe(true);
  });
});

async function renderFromPage(options: { workers?: string; format?: string; scale?: string } = {}): Promise<void> {
  await preview.page.selectOption("#render-format", options.format ?? "mp4");
  await preview.page.selectOption("#render-quality", "draft");
  await preview.page.fill("#render-scale", options.scale ?? "1");
  await preview.page.fill("#render-workers", options.workers ?? "1");
  await preview.page.click("#render-start");
}

describe("rendering from the page", () => {
  it("accepts a render request only as JSON from its own page", async () => {
    const endpoint = new URL("/__compose/renders", preview.url);
    const form = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(form.status).toBe(403);
    const foreign = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json", Origin: "http://example.com" }, body: "{}" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: { code: "forbidden-origin", message: "the preview accepts JSON requests from its own page only" } });
    const unknown = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ output: "/etc/x.mp4" }) });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error: {
        code: "invalid-request",
        message:
          "output is not an option of a render from the preview (allowed: format, quality, fps, scale, workers, allowMissingAssets, variables, instances)",
      },
    });
  });

  it("refuses options the schema refuses, with its one-line problem", async () => {
    await renderFromPage({ workers: "9" });
    await preview.page.waitForFunction(() => document.getElementById("render-panel")!.dataset.state === "refused");
    expect(await preview.page.textContent("#render-status")).toBe("workers must be an integer from 1 to 8, or auto (got 9)");
  });

  it("renders the composition with the page's variable values to an mp4 it links to", async () => {
    await preview.page.$eval("#variable-titleColor", (input: HTMLInputElement) => {
      input.value = "#00ff00";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await renderFromPage();
    await preview.page.waitForFunction(() => document.getElementById("render-panel")!.dataset.state !== "running", undefined, { timeout: 120_000 });
    expect(await preview.page.$eval("#render-panel", (panel) => panel.dataset.state)).toBe("finished");
    expect(await preview.page.getAttribute("#render-progress", "value")).toBe("100");
    const files = await readdir(join(project.dir, "renders"));
    expect(files).toHaveLength(1);
    const output = join(project.dir, "renders", files[0]!);
    const href = (await preview.page.getAttribute("#render-link", "href"))!;
    expect(href).toBe(`/renders/${files[0]}`);
    const served = await preview.page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, type: response.headers.get("content-type"), size: (await response.arrayBuffer()).byteLength };
    }, href);
    expect(served).toMatchObject({ status: 200, type: "video/mp4" });
    // The page's video element plays it.
    await preview.page.waitForFunction(() => (document.getElementById("render-video") as HTMLVideoElement).readyState >= 1, undefined, { timeout: 20_000 });
    expect(await preview.page.$eval("#render-video", (video: HTMLVideoElement) => video.duration)).toBeCloseTo(1, 1);

    const probe = await ffprobe(output, { countFrames: true });
    expect(videoStream(probe).nb_read_frames).toBe("30");
    const first = await decodeFrame(output, 0);
    expect(isColour(first, 50, 70, hex("#00ff00"), 40), "the title in the page's colour").toBe(true);
    const later = await decodeFrame(output, 21);
    expect(isColour(later, 280, 150, hex("#ff00ff"), 40), "the instance in the page's tint").toBe(true);
    // Nothing but the output was written into the project, and the user's files are as they were.
    expect((await readdir(project.dir)).sort()).toEqual(["card.html", "index.html", "index.preview-render-1.html", "media", "renders"]);
    expect(await readFile(join(project.dir, "index.preview-render-1.html"), "utf8")).toBe(USERS_FILE);
  }, 180_000);

  it("renders at the scale chosen on the page, and shows a GIF in an image", async () => {
    const before = new Set(await readdir(join(project.dir, "renders")));
    await renderFromPage({ format: "gif", scale: "0.5" });
    await preview.page.waitForFunction(() => document.getElementById("render-panel")!.dataset.state !== "running", undefined, { timeout: 120_000 });
    expect(await preview.page.$eval("#render-panel", (panel) => panel.dataset.state)).toBe("finished");
    const [name] = (await readdir(join(project.dir, "renders"))).filter((file) => !before.has(file));
    expect(name).toMatch(/\.gif$/);
    const video = videoStream(await ffprobe(join(project.dir, "renders", name!)));
    expect([video.codec_name, video.width, video.height]).toEqual(["gif", 160, 90]);
    await preview.page.waitForFunction(() => (document.getElementById("render-image") as HTMLImageElement).complete, undefined, { timeout: 20_000 });
    expect(await preview.page.$eval("#render-image", (image: HTMLImageElement) => [image.hidden, image.naturalWidth, image.naturalHeight])).toEqual([
      false,
      160,
      90,
    ]);
    expect(await preview.page.$eval("#render-video", (video: HTMLVideoElement) => video.hidden)).toBe(true);
  }, 180_000);

  it("refuses a scale the schema refuses, with its one-line problem", async () => {
    await renderFromPage({ scale: "8" });
    await preview.page.waitForFunction(() => document.getElementById("render-panel")!.dataset.state === "refused");
    expect(await preview.page.textContent("#render-status")).toBe("scale must be a number from 0.25 to 4 (got 8)");
  });

  it("cancels a running render", async () => {
    await renderFromPage();
    await preview.page.click("#render-cancel");
    await preview.page.waitForFunction(() => document.getElementById("render-panel")!.dataset.state !== "running", undefined, { timeout: 60_000 });
    expect(await preview.page.$eval("#render-panel", (panel) => panel.dataset.state)).toBe("cancelled");
    expect(await preview.page.$$eval("#render-messages li", (items) => items.map((item) => item.getAttribute("data-code")))).toEqual(["cancelled"]);
  }, 120_000);
});
