/**
 * `npm run bench:preview`: how fast `compose preview` is on a composition of three sub-composition
 * instances at 1280x720 (the card of bench/compositions/instances, with GSAP), in Debian's headless
 * chromium, on RUNS fresh pages. Prints the median of every try of each:
 * - first frame: from opening the page to its first frame shown (target 1.5 s);
 * - instance edit / variable edit / file save: from the change (the input event, or the file
 *   written) to the frame redrawn with it (target 0.5 s), EDITS of each per page;
 * - scrubbing: frames shown per second while the pointer drags along the timeline for SCRUB_MS.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Page } from "playwright-core";

const root = resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SCRUB_MS = 3000;
/** Edits of each kind per page: the first after opening the page is the slowest (nothing compiled yet). */
const EDITS = 3;

const INDEX = (saved: string) => `<!doctype html>
<html data-composition-variables='[{"id": "title", "type": "string", "label": "Title", "default": "Three cards"}]'>
<head>
  <meta charset="utf-8">
  <meta name="saved" content="${saved}">
  <style>
    * { margin: 0; }
    #stage { position: relative; width: 1280px; height: 720px; overflow: hidden; background: #1e293b; font-family: "DejaVu Sans", sans-serif; }
    #title { position: absolute; left: 60px; top: 40px; font-size: 48px; color: #fff; }
    .host { position: absolute; top: 300px; }
  </style>
</head>
<body>
  <div id="stage" data-composition-id="three-cards" data-width="1280" data-height="720" data-duration="5">
    <div id="title" data-start="0" data-duration="5" data-track-index="0"></div>
    <div class="host" style="left:40px" data-composition-id="card-1" data-composition-src="card.html" data-start="0" data-duration="5" data-track-index="1" data-variable-values='{"name":"One","accent":"#f43f5e"}'></div>
    <div class="host" style="left:460px" data-composition-id="card-2" data-composition-src="card.html" data-start="0.5" data-duration="4.5" data-track-index="2" data-variable-values='{"name":"Two","accent":"#f59e0b"}'></div>
    <div class="host" style="left:880px" data-composition-id="card-3" data-composition-src="card.html" data-start="1" data-duration="4" data-track-index="3" data-variable-values='{"name":"Three","accent":"#10b981"}'></div>
  </div>
  <script>document.getElementById("title").textContent = __compose.getVariables().title;</script>
</body>
</html>
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function startPreview(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(root, "packages/cli/bin/compose.js"), "preview", dir, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return new Promise((done, fail) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
      if (url) done({ url, stop: async () => void (child.kill("SIGTERM"), await exited) });
    });
    child.once("exit", (code) => fail(new Error(`compose preview exited with ${code}: ${out}`)));
  });
}

/**
 * The time (Date.now(), in the page) at which the page first showed a frame, with nothing pending,
 * for which `condition` (a function body over `doc`, the composition's document) holds: checked
 * every animation frame, so it is when that frame was painted, not when this script heard of it.
 */
async function shownAt(page: Page, condition = "true"): Promise<number> {
  const handle = await page.waitForFunction(
    `(() => {
      const stage = document.getElementById("stage");
      if (stage.dataset.pending !== "false" || stage.dataset.shownFrame === undefined) return false;
      const doc = document.getElementById("composition")?.contentDocument;
      return Boolean(doc) && (${condition}) && Date.now();
    })()`,
    undefined,
    { timeout: 60_000, polling: "raf" },
  );
  return (await handle.jsonValue()) as number;
}

/** Seconds from the last input event the page received (an edit's start, as the page sees it) to the frame shown with it. */
async function editSeconds(page: Page, edit: () => Promise<unknown>, condition: string): Promise<number> {
  await edit();
  const shown = await shownAt(page, condition);
  return (shown - (await page.evaluate(() => (window as unknown as { __lastInput: number }).__lastInput))) / 1000;
}

/** Seconds from `action` starting (on this machine's clock) to the frame shown for which `condition` holds. */
async function secondsUntilShown(page: Page, action: () => Promise<unknown>, condition?: string): Promise<number> {
  const start = Date.now();
  await action();
  return ((await shownAt(page, condition)) - start) / 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "compose-bench-preview-"));
  copyFileSync(join(root, "bench/compositions/instances/card.html"), join(dir, "card.html"));
  copyFileSync(join(root, "node_modules/gsap/dist/gsap.min.js"), join(dir, "gsap.min.js"));
  writeFileSync(join(dir, "index.html"), INDEX("first"));
  const preview = await startPreview(dir);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const results = {
    firstFrame: [] as number[],
    instanceEdit: [] as number[],
    variableEdit: [] as number[],
    fileSave: [] as number[],
    scrubFps: [] as number[],
  };
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      results.firstFrame.push(await secondsUntilShown(page, () => page.goto(preview.url)));
      await page.waitForSelector("#instance-card-2-accent");
      await page.evaluate(() => document.addEventListener("input", () => ((window as unknown as { __lastInput: number }).__lastInput = Date.now()), true));

      for (let edit = 0; edit < EDITS; edit++) {
        const accent = `#00${(run * EDITS + edit).toString(16).padStart(2, "0")}00`;
        results.instanceEdit.push(
          await editSeconds(
            page,
            () =>
              page.$eval(
                "#instance-card-2-accent",
                (input: HTMLInputElement, value) => ((input.value = value), input.dispatchEvent(new Event("input", { bubbles: true }))),
                accent,
              ),
            `JSON.parse(document.getElementById("stage").dataset.config).instances?.["card-2"]?.accent === "${accent}"`,
          ),
        );
        const title = `Edited ${run}.${edit}`;
        results.variableEdit.push(await editSeconds(page, () => page.fill("#variable-title", title), `doc.getElementById("title").textContent === "${title}"`));
        const saved = `Saved ${run}.${edit}`;
        results.fileSave.push(
          await secondsUntilShown(
            page,
            async () => writeFileSync(join(dir, "index.html"), INDEX(saved)),
            `doc.querySelector('meta[name="saved"]').content === "${saved}"`,
          ),
        );
      }

      // Drag along the timeline's first lane from 0 to the end, a pointer event every 16 ms.
      const lane = (await page.$(".lane-track"))!;
      const box = (await lane.boundingBox())!;
      await page.evaluate(() => {
        const stage = document.getElementById("stage")!;
        const seen: string[] = [];
        new MutationObserver(() => {
          if (stage.dataset.shownFrame !== seen.at(-1)) seen.push(stage.dataset.shownFrame!);
        }).observe(stage, { attributes: true, attributeFilter: ["data-shown-frame"] });
        (window as unknown as { __shownFrames: string[] }).__shownFrames = seen;
      });
      await page.mouse.move(box.x + 1, box.y + box.height / 2);
      await page.mouse.down();
      const steps = Math.round(SCRUB_MS / 16);
      const started = performance.now();
      for (let i = 1; i <= steps; i++) {
        await page.mouse.move(box.x + (box.width * i) / steps, box.y + box.height / 2);
        const wait = started + i * 16 - performance.now();
        if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      }
      await page.mouse.up();
      const seconds = (performance.now() - started) / 1000;
      const frames = await page.evaluate(() => (window as unknown as { __shownFrames: string[] }).__shownFrames.length);
      results.scrubFps.push(frames / seconds);
      await page.close();
      writeFileSync(join(dir, "index.html"), INDEX("first"));
    }
  } finally {
    await browser.close();
    await preview.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const line = (name: string, values: number[], unit: string, digits = 2) =>
    `${name.padEnd(26)} ${median(values).toFixed(digits)} ${unit}  (max ${Math.max(...values).toFixed(digits)}; each: ${values.map((value) => value.toFixed(digits)).join(", ")})`;
  console.log(`compose preview, three instances at 1280x720, chromium, ${RUNS} pages, ${EDITS} edits of each kind per page`);
  console.log(line("first frame", results.firstFrame, "s"));
  console.log(line("instance variable edit", results.instanceEdit, "s"));
  console.log(line("variable edit", results.variableEdit, "s"));
  console.log(line("file save", results.fileSave, "s"));
  console.log(line("scrubbing", results.scrubFps, "frames shown per second", 1));
}

await main();
