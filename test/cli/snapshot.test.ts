/**
 * `compose snapshot` captures moments of a composition from one page load, each the frame a render
 * captures: `--frames-dir` writes the very files `compose render --time` writes, a composition that
 * builds its state over time included, and the contact sheet holds the same pixels in a grid, each
 * frame over a label strip. `--count` spreads the moments over the duration, render's variable
 * flags change the frames, and a bad moment is one line.
 */
import { readdir, readFile } from "node:fs/promises";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render, runCli, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createCacheDir } from "../support/test-media.js";
import { pixel, type Frame } from "../support/media.js";

/** An orange box crossing the frame in 1 s; its colour a variable. */
const MOVING = compositionHtml({
  id: "snap",
  duration: 1,
  backdrop: "#101828",
  variables: [{ id: "color", type: "color", label: "Colour", default: "#ff8800" }],
  body: `<div id="box" style="position: absolute; left: 0; top: 70px; width: 40px; height: 40px"></div>`,
  after: `<script src="gsap.min.js"></script><script>
  const box = document.getElementById("box");
  box.style.background = __compose.getVariables().color ?? "#ff8800";
  const tl = gsap.timeline({ paused: true });
  tl.to(box, { x: 280, duration: 1, ease: "none" });
  window.__timelines = { snap: tl };
</script>`,
});

/** A square that falls faster every frame: its place at frame n is the sum of the frames before it. */
const FALLING = compositionHtml({
  id: "falling",
  duration: 1,
  backdrop: "#0b1020",
  body: `<canvas id="sky" width="320" height="180" style="position: absolute; left: 0; top: 0"></canvas>`,
  after: `<script>
  const ctx = document.getElementById("sky").getContext("2d");
  ctx.fillStyle = "#f59e0b";
  let y = 0, v = 0, last = null;
  requestAnimationFrame(function step(ts) {
    const dt = last === null ? 0 : (ts - last) / 1000;
    last = ts;
    v += 300 * dt;
    y += v * dt;
    ctx.clearRect(0, 0, 320, 180);
    ctx.fillRect(140, y, 20, 20);
    requestAnimationFrame(step);
  });
</script>`,
});

const AT = ["0", "0.5", "0.9"];
const FRAMES = [0, 15, 27];

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;

beforeAll(async () => {
  cache = await createCacheDir();
  project = await createProject({ "index.html": MOVING, "falling.html": FALLING }, { gsap: true, prefix: "compose-snapshot-" });
});

afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

function snapshot(args: string[]): Promise<CliResult> {
  return runCli(["snapshot", ...args], { cwd: project.dir, env: cache.env });
}

const rendered = new Map<string, Promise<Buffer>>();

/** `compose render --time` of one moment, as one PNG file's bytes (each rendered once). */
function renderedAt(file: string, time: string, extra: string[] = []): Promise<Buffer> {
  const key = [file, time, ...extra].join(" ");
  if (!rendered.has(key)) {
    const output = project.path("renders", `${rendered.size}.png`);
    const run = render([file, "--time", time, "--output", output, ...extra], { cwd: project.dir, env: cache.env });
    rendered.set(
      key,
      run.then((result) => {
        expect(result.code, result.stderr).toBe(0);
        return readFile(output);
      }),
    );
  }
  return rendered.get(key)!;
}

const frameName = (frame: number) => `frame_${String(frame).padStart(6, "0")}.png`;

function decode(bytes: Buffer): Frame {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: png.data };
}

/** The `width` x `height` region of `frame` at (x, y), as RGBA. */
function region(frame: Frame, x: number, y: number, width: number, height: number): Buffer {
  const rows = Array.from({ length: height }, (_, row) => frame.data.subarray(((y + row) * frame.width + x) * 4, ((y + row) * frame.width + x + width) * 4));
  return Buffer.concat(rows);
}

describe("compose snapshot --frames-dir", () => {
  it("writes each moment as the file compose render --time writes, from one page load", async () => {
    const run = await snapshot(["index.html", "--at", AT.join(","), "--frames-dir", "frames", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ output: project.path("frames"), moments: FRAMES.map((frame) => ({ time: frame / 30, frame })) });
    expect((await readdir(project.path("frames"))).sort()).toEqual(FRAMES.map(frameName));
    for (const [i, time] of AT.entries()) {
      expect((await readFile(project.path("frames", frameName(FRAMES[i]!)))).equals(await renderedAt("index.html", time)), `at ${time} s`).toBe(true);
    }
  });

  it("plays the frames between moments of a composition that builds up its state, as a render does", async () => {
    const run = await snapshot(["falling.html", "--at", "0.3,0.8", "--frames-dir", "falling"]);
    expect(run.code, run.stderr).toBe(0);
    for (const [frame, time] of [
      [9, "0.3"],
      [24, "0.8"],
    ] as const) {
      expect((await readFile(project.path("falling", frameName(frame)))).equals(await renderedAt("falling.html", time)), `at ${time} s`).toBe(true);
    }
  });

  it("takes the frames the variables make", async () => {
    const variables = ["--variables", '{"color": "#00ff00"}'];
    const run = await snapshot(["index.html", "--at", "0.5", "--frames-dir", "green", ...variables]);
    expect(run.code, run.stderr).toBe(0);
    const green = await readFile(project.path("green", frameName(15)));
    expect(green.equals(await renderedAt("index.html", "0.5", variables))).toBe(true);
    // The box is 40 px wide at x = 140 + 20 at 0.5 s: its middle is green, where the default is orange.
    expect(pixel(decode(green), 160, 90)).toEqual([0, 255, 0, 255]);
    expect(pixel(decode(await readFile(project.path("frames", frameName(15)))), 160, 90)).toEqual([255, 136, 0, 255]);
  });
});

describe("compose snapshot's contact sheet", () => {
  it("holds the moments' frames as render captures them, in a grid, each over its label", async () => {
    const run = await snapshot(["index.html", "--at", AT.join(","), "-o", "sheet.png"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("0.50 s · frame 15");
    const sheet = decode(await readFile(project.path("sheet.png")));
    // Three 320x180 frames in a row, 8 px apart and from the edge, each over a 28 px label strip.
    expect([sheet.width, sheet.height]).toEqual([8 + 3 * (320 + 8), 8 + 180 + 28 + 8]);
    const strips: Buffer[] = [];
    for (const [i, time] of AT.entries()) {
      const x = 8 + i * 328;
      const frame = decode(await renderedAt("index.html", time));
      expect(region(sheet, x, 8, 320, 180).equals(region(frame, 0, 0, 320, 180)), `the cell at ${time} s`).toBe(true);
      strips.push(region(sheet, x, 8 + 180, 320, 28));
    }
    // Each label is text drawn on the strip: light pixels on it, and no two labels alike.
    for (const strip of strips) expect(strip.some((value, i) => i % 4 === 0 && value > 200)).toBe(true);
    expect(new Set(strips.map((strip) => strip.toString("base64"))).size).toBe(3);
  });

  it("spreads --count moments evenly from the first frame to the last, up to 4 a row", async () => {
    const run = await snapshot(["index.html", "--count", "5", "-o", "count.png", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).moments.map((moment: { frame: number }) => moment.frame)).toEqual([0, 7, 15, 22, 29]);
    const sheet = decode(await readFile(project.path("count.png")));
    expect([sheet.width, sheet.height]).toEqual([8 + 4 * (320 + 8), 8 + 2 * (180 + 28 + 8)]);
  });
});

describe("compose snapshot's errors", () => {
  it("refuses a moment past the end in one line naming the duration, and writes nothing", async () => {
    const run = await snapshot(["index.html", "--at", "0,5", "-o", "late.png"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: the moment at 5 s is past the end of composition "snap", which lasts 1 s (its last frame is 29, at 0.967 s at 30 fps)\n');
    await expect(readFile(project.path("late.png"))).rejects.toThrow();
  });

  it.each([
    [["--at", "0,soon"], "error: --at must be times in seconds, 0 or more, separated by commas, such as 0,1.5,3 (got 0,soon)"],
    [["--at", "0", "--count", "2"], "error: --at and --count cannot be combined: choose one"],
    [["--count", "0"], "error: --count must be a whole number from 1 to 100 (got 0)"],
    [["-o", "sheet.jpg"], 'error: --output must name a .png file, the contact sheet (got "sheet.jpg"); --frames-dir writes the frames as files'],
  ])("refuses %j as a usage error in one line", async (args, message) => {
    const run = await snapshot(["index.html", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${message}\n`);
  });
});
