/**
 * A damaged cache never changes a render: every entry compose fills ($COMPOSE_CACHE_DIR/fonts, the
 * default fonts; $COMPOSE_CACHE_DIR/frames, a video's extracted frames) is checked against the
 * manifest written when it was filled. A truncated font, an empty fonts.conf, a deleted file, a
 * missing manifest or a frame whose bytes were overwritten is found by the next render, which
 * fills the entry again with one `cache-rebuilt` warning naming the file, and draws exactly what
 * a render from a clean cache draws. Two renders filling an empty cache at once both succeed. A
 * damage to the fonts entry and one to the frames entry are found by the same render, one warning
 * each.
 */
import { readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, render, RENDER_HOOK_TIMEOUT_MS, type CliResult } from "../support/cli.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { createCacheDir, generateMedia, MEDIA_FILES } from "../support/test-media.js";

const ROWS = ["sans-serif", "serif", "monospace"].map(
  (family, index) => `<div style="position:absolute;left:170px;top:${20 + index * 50}px;font:28px ${family};color:#000">Ag ${family.slice(0, 4)}</div>`,
);
const VIDEO = `<video src="${MEDIA_FILES.colours}" data-start="0" data-duration="0.4" muted style="position:absolute;left:0;top:0;width:160px;height:90px"></video>`;
/** 0.4 s at 30 fps: the video's extracted frames run to frame_000011.png, past the two the damages touch. */
const FRAMES = 12;

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
const runs = new Map<string, CliResult>();

function run(name: string): Promise<CliResult> {
  return render([project.path("index.html"), "--format", "png-sequence", "--output", project.path("out", name), "--workers", "1"], { env: cache.env });
}

/** The one entry under a cache folder. */
async function entry(folder: "fonts" | "frames"): Promise<string> {
  const names = (await readdir(join(cache.dir, folder))).filter((name) => !name.includes("."));
  expect(names, `entries under ${folder}`).toHaveLength(1);
  return join(cache.dir, folder, names[0]!);
}

/** Each damage, and what the warning of the render after it says. */
const DAMAGES: Record<string, { warning: string; damage(): Promise<void> }> = {
  "truncated font": {
    warning: "files/inter-latin-wght-normal.ttf is 1000 bytes",
    damage: async () => truncate(join(await entry("fonts"), "files", "inter-latin-wght-normal.ttf"), 1000),
  },
  "empty fonts.conf": { warning: "fonts.conf is 0 bytes", damage: async () => writeFile(join(await entry("fonts"), "fonts.conf"), "") },
  "deleted font": {
    warning: "files/tinos-latin-400-normal.ttf is missing",
    damage: async () => rm(join(await entry("fonts"), "files", "tinos-latin-400-normal.ttf")),
  },
  "no manifest": { warning: "it has no manifest", damage: async () => rm(join(await entry("fonts"), ".manifest.json")) },
  "deleted frame": { warning: "frame_000003.png is missing", damage: async () => rm(join(await entry("frames"), "frame_000003.png")) },
  "overwritten frame": {
    warning: "frame_000010.png does not hold the bytes it was written with",
    damage: async () => {
      const frame = join(await entry("frames"), "frame_000010.png");
      await writeFile(frame, randomBytes((await readFile(frame)).length));
    },
  },
};

/**
 * The damaged renders, in order, each after the damages it lists: a render checks the fonts entry
 * and the frames entry each on its own, so one damage to each is done before the same render.
 * Each render also finds that the entries the one before it rebuilt are whole.
 */
const DAMAGED_RENDERS = [["truncated font", "deleted frame"], ["empty fonts.conf", "overwritten frame"], ["deleted font"], ["no manifest"]];
const runName = (damages: string[]) => damages.join(", ");

beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "cached", duration: 0.4, backdrop: "#ffffff", body: VIDEO + ROWS.join("\n") }) });
  await generateMedia(project.dir, ["colours"]);
  cache = await createCacheDir();
  // Both fill the empty cache at once.
  const [first, second] = await Promise.all([run("clean"), run("clean-too")]);
  runs.set("clean", first).set("clean-too", second);
  for (const damages of DAMAGED_RENDERS) {
    for (const damage of damages) await DAMAGES[damage]!.damage();
    runs.set(runName(damages), await run(runName(damages)));
  }
  runs.set("again", await run("again"));
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

/** Every frame file of a render's output, in order. */
async function frames(name: string): Promise<Buffer[]> {
  const dir = project.path("out", name);
  const files = (await readdir(dir)).filter((file) => file.endsWith(".png")).sort();
  return Promise.all(files.map((file) => readFile(join(dir, file))));
}

/** The frames draw the same pixels: equal files hold equal pixels, so only files that differ are decoded and compared. */
function expectSameFrames(drawn: Buffer[], clean: Buffer[]): void {
  expect(drawn.length).toBe(clean.length);
  drawn.forEach((file, index) => {
    if (!file.equals(clean[index]!)) expect(Buffer.compare(PNG.sync.read(file).data, PNG.sync.read(clean[index]!).data), `frame ${index}`).toBe(0);
  });
}

function rebuiltWarnings(name: string): string[] {
  const result = runs.get(name)!;
  expect(result.code, result.stderr).toBe(0);
  return lines(result.stderr).filter((line) => line.includes("[cache-rebuilt]"));
}

describe("a cache filled by two renders at once", () => {
  it("serves both, with the same frames and no warning", async () => {
    expect(rebuiltWarnings("clean")).toEqual([]);
    expect(rebuiltWarnings("clean-too")).toEqual([]);
    const clean = await frames("clean");
    expect(clean).toHaveLength(FRAMES);
    expectSameFrames(await frames("clean-too"), clean);
  });
});

describe("a damaged cache", () => {
  it.each(Object.keys(DAMAGES))("%s: is rebuilt with one warning naming it, and the render draws what a clean cache draws", async (name) => {
    const damages = DAMAGED_RENDERS.find((list) => list.includes(name))!;
    const warnings = rebuiltWarnings(runName(damages));
    // One warning for each damaged entry.
    expect(warnings).toHaveLength(damages.length);
    const naming = warnings.filter((line) => line.includes(DAMAGES[name]!.warning));
    expect(naming).toHaveLength(1);
    expect(naming[0]).toContain(cache.dir);
    expectSameFrames(await frames(runName(damages)), await frames("clean"));
  });

  it("stays rebuilt: the next render has nothing to say", () => {
    expect(rebuiltWarnings("again")).toEqual([]);
  });
});
