import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
const dir = process.argv[2]!;
const child = spawn(process.execPath, ["/work/wt-studio/packages/cli/bin/compose.js", "preview", dir, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const url: string = await new Promise((done) => { let o = ""; child.stdout.on("data", (c) => { o += c; const m = /http:\S+\//.exec(o); if (m) done(m[0]); }); });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
for (let i = 0; i < 2; i++) {
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
const t0 = Date.now();
await page.goto(url);
await page.waitForFunction(() => document.getElementById("stage")!.dataset.pending === "false" && document.getElementById("stage")!.dataset.shownFrame === "0", undefined, { timeout: 60000 });
console.log("shown after", Date.now() - t0);
const entries = await page.evaluate(() => {
  const all: string[] = [];
  const list = (w: Window, tag: string) => { for (const e of w.performance.getEntriesByType("resource") as PerformanceResourceTiming[]) all.push(`${tag} ${e.name.replace(location.origin, "").slice(0, 60)} start ${e.startTime.toFixed(0)} dur ${e.duration.toFixed(0)}`); for (let j = 0; j < w.frames.length; j++) list(w.frames[j]!, tag + ">"); };
  list(window, "");
  return all;
});
console.log(entries.join("\n"));
await page.close();
}
await browser.close(); child.kill();
