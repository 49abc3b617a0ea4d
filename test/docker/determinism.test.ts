/**
 * The determinism contract container mode stands on, checked locally with --no-browser-gpu (what
 * the container runs): two renders of the same composition with the same inputs give identical
 * frames. png-sequence files are byte-identical; an mp4's decoded frames are identical. The
 * composition leans on everything a wall clock or a random source would make differ between runs:
 * Math.random (at load, in timers and in every animation frame), Date and performance.now,
 * requestAnimationFrame timestamps, setTimeout chains and setInterval, drawn cumulatively on a
 * canvas so that one different value anywhere shows in every later frame.
 */
import { readdir, readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { decodeAllFrames, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";

const html = compositionHtml({
  id: "chaos",
  duration: 1,
  backdrop: "#101010",
  css: `
    canvas { position: absolute; left: 0; top: 0; }
    #clock, #timers { position: absolute; left: 8px; font: 14px "DejaVu Sans", sans-serif; color: #ffffff; }
    #clock { top: 140px; }
    #timers { top: 158px; }
    .dot { position: absolute; width: 10px; height: 10px; border-radius: 5px; }`,
  body: `<canvas id="paint" width="320" height="130"></canvas><div id="clock"></div><div id="timers"></div>`,
  after: `<script>
  const canvas = document.getElementById("paint");
  const ctx = canvas.getContext("2d");
  const stage = document.getElementById("stage");
  const hue = Math.floor(Math.random() * 360);
  const colour = () => "hsl(" + Math.floor(Math.random() * 360) + ", 80%, " + (30 + Math.floor(Math.random() * 40)) + "%)";
  ctx.fillStyle = "hsl(" + hue + ", 40%, 20%)";
  ctx.fillRect(0, 0, 320, 130);

  // Every animation frame adds random strokes where its timestamp says: never cleared.
  function frame(timestamp) {
    for (let i = 0; i < 3; i++) {
      ctx.strokeStyle = colour();
      ctx.lineWidth = 1 + Math.random() * 3;
      ctx.beginPath();
      ctx.moveTo((timestamp / 1000) * 300, Math.random() * 130);
      ctx.lineTo(Math.random() * 320, Math.random() * 130);
      ctx.stroke();
    }
    const now = new Date();
    document.getElementById("clock").textContent =
      now.toISOString() + " " + Date.now() % 100000 + " " + performance.now().toFixed(3);
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  // A self-rescheduling timeout chain with random delays, each adding a dot at a random place.
  let dots = 0;
  function drop() {
    const dot = document.createElement("div");
    dot.className = "dot";
    dot.style.left = Math.floor(Math.random() * 300) + "px";
    dot.style.top = Math.floor(Math.random() * 120) + "px";
    dot.style.background = colour();
    stage.appendChild(dot);
    dots++;
    setTimeout(drop, 20 + Math.random() * 80);
  }
  setTimeout(drop, 10);

  let ticks = 0;
  setInterval(() => {
    ticks++;
    document.getElementById("timers").textContent = "ticks " + ticks + ", dots " + dots + ", r " + Math.random().toFixed(6);
  }, 33);
</script>`,
});

let project: TempProject;
const results: CliResult[] = [];

function renderTwice(format: "png-sequence" | "mp4", workers: number): Array<Promise<CliResult>> {
  // One after the other, not side by side: identical output must not depend on timing.
  const run = (name: string) =>
    render([project.dir, "--format", format, "--no-browser-gpu", "--workers", String(workers), "--output", project.path("out", name), "--quiet"], {
      timeoutMs: 120_000,
    });
  const first = run(`${format}-1${format === "mp4" ? ".mp4" : ""}`);
  const second = first.then(() => run(`${format}-2${format === "mp4" ? ".mp4" : ""}`));
  return [first, second];
}

beforeAll(async () => {
  project = await createProject({ "index.html": html });
  // The png pair and the mp4 pair run side by side: the machine is busier, which must not matter.
  results.push(...(await Promise.all([...renderTwice("png-sequence", 1), ...renderTwice("mp4", 2)])));
}, RENDER_HOOK_TIMEOUT_MS);
afterAll(() => project?.remove());

function digest(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The frames must really change with time (and so with the random values drawn at each time). */
function expectAnimated(frames: Frame[] | Buffer[], total: number): void {
  const data = frames.map((frame) => (Buffer.isBuffer(frame) ? frame : frame.data));
  expect(data).toHaveLength(total);
  expect(new Set(data.map(digest)).size).toBeGreaterThan(total - 3);
}

describe("two renders with the same inputs (--no-browser-gpu)", () => {
  it("all succeed", () => {
    for (const result of results) expect(result.code, result.stderr).toBe(0);
  });

  it("write byte-identical png-sequence frames", async () => {
    const names = (await readdir(project.path("out", "png-sequence-1"))).sort();
    expect(names).toEqual((await readdir(project.path("out", "png-sequence-2"))).sort());
    const first = await Promise.all(names.map((name) => readFile(project.path("out", "png-sequence-1", name))));
    const second = await Promise.all(names.map((name) => readFile(project.path("out", "png-sequence-2", name))));
    expectAnimated(first, 30);
    for (let i = 0; i < names.length; i++) expect(first[i]!.equals(second[i]!), names[i]).toBe(true);
  });

  it("encode mp4s whose decoded frames are identical (two workers each)", async () => {
    const [first, second] = await Promise.all([decodeAllFrames(project.path("out", "mp4-1.mp4")), decodeAllFrames(project.path("out", "mp4-2.mp4"))]);
    expectAnimated(first, 30);
    expect(second).toHaveLength(first.length);
    for (let i = 0; i < first.length; i++) expect(first[i]!.data.equals(second[i]!.data), `frame ${i}`).toBe(true);
  });
});
