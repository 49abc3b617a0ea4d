/**
 * `npm run bench:player`: does <compose-player> play a 1920x1080 GSAP composition
 * (bench/compositions/motion: 24 boxes, a counter, a title, 10 s) at 30 fps in Debian's chromium
 * (and firefox-esr with BENCH_BROWSERS=chromium,firefox-esr), shown at its own size in a
 * 1920x1080 viewport from a static server? The player never skips a frame: when a frame's seek
 * takes longer than its share of a second, it plays slower. So it prints, per browser and run:
 * - frames shown and the frame rate achieved over the play (frames after the first / seconds);
 * - late frames: frames shown more than one frame (33 ms) after their time in a play at 30 fps
 *   from the first frame shown (each is a frame a video player would have dropped);
 * - the gaps between frames shown: median, 95th percentile and longest.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serveStatic } from "../../test/support/static-server.js";
import { BROWSERS, openWebPage, type BrowserName } from "../../test/support/web-browsers.js";

const root = resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FPS = 30;
const wanted = (process.env.BENCH_BROWSERS ?? "chromium").split(",") as BrowserName[];

/** Runs in the page: plays from frame 0 to the end and returns the wall time each frame showed at. */
const PLAY = `async () => {
  const player = document.getElementById("player");
  await customElements.whenDefined("compose-player");
  player.currentFrame = 0;
  await player.whenIdle();
  const shown = [];
  player.addEventListener("timeupdate", () => shown.push([player.currentFrame, performance.now()]));
  const ended = new Promise((resolve) => player.addEventListener("ended", resolve, { once: true }));
  player.play();
  await ended;
  return shown;
}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const site = mkdtempSync(join(tmpdir(), "compose-bench-player-"));
mkdirSync(join(site, "motion"));
copyFileSync(join(root, "bench/compositions/motion/index.html"), join(site, "motion/index.html"));
copyFileSync(join(root, "node_modules/gsap/dist/gsap.min.js"), join(site, "motion/gsap.min.js"));
copyFileSync(join(root, "packages/player/dist/compose-player.js"), join(site, "compose-player.js"));
writeFileSync(
  join(site, "index.html"),
  `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="compose-player.js"></script><style>body { margin: 0; }</style></head>
<body><compose-player id="player" src="motion/index.html" style="width: 1920px; height: 1080px"></compose-player></body></html>`,
);
const server = await serveStatic(site);
try {
  for (const browser of BROWSERS.filter((name) => wanted.includes(name))) {
    for (let run = 1; run <= RUNS; run++) {
      const web = await openWebPage(browser, server.url, { width: 1920, height: 1080 });
      try {
        const shown = await web.run<Array<[number, number]>>(PLAY);
        const [firstFrame, firstAt] = shown[0]!;
        const seconds = (shown.at(-1)![1] - firstAt) / 1000;
        const late = shown.filter(([frame, at]) => at - (firstAt + ((frame - firstFrame) * 1000) / FPS) > 1000 / FPS).length;
        const skipped = shown.slice(1).filter(([frame], index) => frame !== shown[index]![0] + 1).length;
        const gaps = shown.slice(1).map(([, at], index) => at - shown[index]![1]);
        console.log(
          `${browser} run ${run}: ${shown.length} frames in ${seconds.toFixed(2)} s = ${((shown.length - 1) / seconds).toFixed(1)} fps; ` +
            `late ${late}, skipped ${skipped}; gaps median ${percentile(gaps, 0.5).toFixed(1)} ms, p95 ${percentile(gaps, 0.95).toFixed(1)} ms, longest ${Math.max(...gaps).toFixed(1)} ms`,
        );
      } finally {
        await web.close();
      }
    }
  }
} finally {
  await server.close();
  rmSync(site, { recursive: true, force: true });
}
