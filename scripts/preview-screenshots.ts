/**
 * Takes the README's screenshots of compose preview: `npx tsx scripts/preview-screenshots.ts`.
 * Starts `compose preview examples/scenes`, opens it in Debian's chromium and writes PNGs to
 * docs/images/.
 */
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = `${ROOT}docs/images/`;

const preview = spawn(process.execPath, [`${ROOT}packages/cli/bin/compose.js`, "preview", "examples/scenes", "--port", "0"], {
  cwd: ROOT,
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve, reject) => {
  preview.stdout.on("data", (chunk: Buffer) => {
    const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(chunk.toString());
    if (match) resolve(match[0]);
  });
  preview.once("exit", () => reject(new Error("compose preview exited")));
});

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--force-color-profile=srgb"] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  const settled = (frame: number) =>
    page.waitForFunction((wanted) => {
      const stage = document.getElementById("stage")!;
      return stage.dataset.pending === "false" && stage.dataset.shownFrame === String(wanted);
    }, frame);
  await page.waitForSelector(".clip");
  await page.click('.clip[data-label="card-left"] .expand');
  const lane = (await (await page.$(".lane-track"))!.boundingBox())!;
  // 1.2 s into 4 s.
  await page.mouse.click(lane.x + (lane.width * 1.2) / 4, lane.y + 4);
  await settled(36);
  await page.hover('.clip[data-label="rule"]');
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: `${OUT}preview-studio.png` });

  await page.selectOption("#render-quality", "draft");
  await page.click("#render-start");
  await page.waitForFunction(() => document.getElementById("render-panel")!.dataset.state !== "running", undefined, { timeout: 300_000 });
  await page.waitForFunction(() => (document.getElementById("render-video") as HTMLVideoElement).readyState >= 2);
  await page.locator("#render-panel").screenshot({ path: `${OUT}preview-render-panel.png` });
} finally {
  await browser.close();
  preview.kill("SIGTERM");
}
