import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GSAP_SCRIPT, startHarness, type Harness } from "../test/page-harness.js";

/** One box per animation technique; each moves 0 -> 100 px linearly over 2 s from time 0. */
const ANIMATIONS = `<!doctype html>
<html><head><style>
  * { margin: 0; }
  .box { position: absolute; top: 0; left: 0; width: 10px; height: 10px; background: red; }
  @keyframes slide { from { transform: translateX(0px); } to { transform: translateX(100px); } }
  #css { animation: slide 2s linear both; }
  #delayed { animation: slide 1s linear 1s both; }
  #transition { transition: transform 2s linear; }
</style></head>
<body>
<div id="stage" data-composition-id="anim" data-width="320" data-height="180" data-duration="4">
  <div class="box" id="gsap"></div>
  <div class="box" id="gsap-auto"></div>
  <div class="box" id="css"></div>
  <div class="box" id="delayed"></div>
  <div class="box" id="transition"></div>
  <div class="box" id="waapi"></div>
  <div class="box" id="waapi-offset"></div>
  <div class="box" id="raf"></div>
  <div class="box" id="late"></div>
  <div class="box" id="manual"></div>
</div>
${GSAP_SCRIPT}
<script>
  const slide = [{ transform: "translateX(0px)" }, { transform: "translateX(100px)" }];
  const box = (id) => document.getElementById(id);

  window.__timelines.anim = gsap.timeline({ paused: true }).to("#gsap", { x: 100, duration: 2, ease: "none" });
  gsap.to("#gsap-auto", { x: 100, duration: 2, ease: "none" });

  box("transition").getBoundingClientRect();
  box("transition").style.transform = "translateX(100px)";

  box("waapi").animate(slide, { duration: 2000, easing: "linear", fill: "both" });
  // Starts half way: the current time an author sets must survive adoption.
  box("waapi-offset").animate(slide, { duration: 4000, easing: "linear", fill: "both" }).currentTime = 2000;

  (function loop(ts) {
    if (ts !== undefined) box("raf").style.transform = "translateX(" + Math.min(100, ts / 20) + "px)";
    requestAnimationFrame(loop);
  })();

  // Created at composition time 1 s: at t it shows its state at t - 1.
  setTimeout(() => box("late").animate(slide, { duration: 2000, easing: "linear", fill: "both" }), 1000);

  // Paused by its author and driven from onSeek: the runtime leaves it alone.
  const manual = box("manual").animate(slide, { duration: 1000, fill: "both" });
  manual.pause();
  __compose.onSeek((t) => { manual.currentTime = 500; });
</script>
</body></html>`;

const IDS = ["gsap", "gsap-auto", "css", "delayed", "transition", "waapi", "waapi-offset", "raf", "late", "manual"] as const;

function translations(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    (ids) => Object.fromEntries(ids.map((id) => [id, new DOMMatrix(getComputedStyle(document.getElementById(id)!).transform).m41])),
    [...IDS],
  );
}

async function seek(page: Page, t: number): Promise<Record<string, number>> {
  await page.evaluate((time) => window.__compose!.seek(time), t);
  return translations(page);
}

function expectClose(actual: Record<string, number>, expected: Record<string, number>): void {
  for (const [id, value] of Object.entries(expected)) {
    expect(actual[id], id).toBeCloseTo(value, 1);
  }
}

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe("seek(t) drives every animation technique from composition time", () => {
  it("moving forward, after the wall clock has run on", async () => {
    const page = await harness.open(ANIMATIONS);
    // Real time passing between load and the first seek must not move anything.
    await new Promise((done) => setTimeout(done, 300));
    expectClose(await seek(page, 0), { gsap: 0, "gsap-auto": 0, css: 0, delayed: 0, transition: 0, waapi: 0, "waapi-offset": 50, raf: 0, late: 0, manual: 50 });
    expectClose(await seek(page, 0.5), { gsap: 25, "gsap-auto": 25, css: 25, delayed: 0, transition: 25, waapi: 25, "waapi-offset": 62.5, raf: 25 });
    expectClose(await seek(page, 1.5), { gsap: 75, "gsap-auto": 75, css: 75, delayed: 50, transition: 75, waapi: 75, "waapi-offset": 87.5, raf: 75, late: 25 });
    expectClose(await seek(page, 3), {
      gsap: 100,
      "gsap-auto": 100,
      css: 100,
      delayed: 100,
      transition: 100,
      waapi: 100,
      "waapi-offset": 100,
      raf: 100,
      late: 100,
      manual: 50,
    });
    expect(await page.evaluate(() => window.__compose!.errors)).toEqual([]);
    await page.close();
  });

  it("in any order, and twice at one time, giving the same frame", async () => {
    const reference = await harness.open(ANIMATIONS);
    const expected = new Map<number, Record<string, number>>();
    for (const t of [0, 1, 1.25, 2, 2.5]) expected.set(t, await seek(reference, t));
    await reference.close();

    const page = await harness.open(ANIMATIONS);
    await seek(page, 2.5); // a worker's range may start anywhere
    // Tweens outside registered timelines run on GSAP's ticker, which only moves forward.
    const seekable = (frame: Record<string, number>) => {
      const { ["gsap-auto"]: _forwardOnly, ...rest } = frame;
      return rest;
    };
    for (const t of [1.25, 0, 2, 1, 1, 2.5, 0, 1.25]) {
      expectClose(seekable(await seek(page, t)), seekable(expected.get(t)!));
    }
    await page.close();
  });

  it("pauses the timelines it drives, even one the author left playing", async () => {
    const page = await harness.open(`<div id="stage" data-composition-id="p" data-width="320" data-height="180">
      <div id="box" style="width:10px;height:10px"></div></div>${GSAP_SCRIPT}
      <script>window.__timelines.p = gsap.timeline().to("#box", { x: 100, duration: 2, ease: "none" });</script>`);
    await page.evaluate(() => window.__compose!.seek(1));
    await new Promise((done) => setTimeout(done, 200));
    expect(
      await page.evaluate(() => ({
        x: new DOMMatrix(getComputedStyle(document.getElementById("box")!).transform).m41,
        paused: (window as any).__timelines.p.paused(),
      })),
    ).toEqual({ x: 50, paused: true });
    await page.close();
  });
});
