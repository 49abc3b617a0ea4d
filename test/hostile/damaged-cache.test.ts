/**
 * A damaged cache never changes a render: every entry compose fills ($COMPOSE_CACHE_DIR/fonts, the
 * default fonts; $COMPOSE_CACHE_DIR/frames, a video's extracted frames) is checked against the
 * manifest written when it was filled. A truncated font, an empty fonts.conf, a deleted file, a
 * missing manifest or a frame whose bytes were overwritten is found by the next render, which
 * fills the entry again with one `cache-rebuilt` warning naming the file, and draws exactly what
 * a render from a clean cache draws. Two renders filling an empty cache at once both succeed.
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
const VIDEO = `<video src="${MEDIA_FILES.colours}" data-start="0" data-duration="1" muted style="position:absolute;left:0;top:0;width:160px;height:90px"></video>`;

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

/** Damages the cache with `damage`, then renders `name` from it. */
async function renderAfter(name: string, damage: () => Promise<void>): Promise<void> {
  await damage();
  runs.set(name, await run(name));
}

beforeAll(async () => {
  project = await createProject({ "index.html": compositionHtml({ id: "cached", duration: 1, backdrop: "#ffffff", body: VIDEO + ROWS.join("\n") }) });
  await generateMedia(project.dir, ["colours"]);
  cache = await createCacheDir();
  // Both fill the empty cache at once.
  const [first, second] = await Promise.all([run("clean"), run("clean-too")]);
  runs.set("clean", first).set("clean-too", second);
  await renderAfter("truncated font", async () => truncate(join(await entry("fonts"), "files", "inter-latin-wght-normal.ttf"), 1000));
  await renderAfter("empty fonts.conf", async () => writeFile(join(await entry("fonts"), "fonts.conf"), ""));
  await renderAfter("deleted font", async () => rm(join(await entry("fonts"), "files", "tinos-latin-400-normal.ttf")));
  await renderAfter("no manifest", async () => rm(join(await entry("fonts"), ".manifest.json")));
  await renderAfter("deleted frame", async () => rm(join(await entry("frames"), "frame_000003.png")));
  await renderAfter("overwritten frame", async () => {
    const frame = join(await entry("frames"), "frame_000010.png");
    await writeFile(frame, randomBytes((await readFile(frame)).length));
  });
  runs.set("again", await run("again"));
}, RENDER_HOOK_TIMEOUT_MS);

afterAll(async () => {
  await project?.remove();
  await cache?.remove();
});

/** Every frame of a render's output, decoded. */
async function frames(name: string): Promise<Buffer[]> {
  const dir = project.path("out", name);
  const files = (await readdir(dir)).filter((file) => file.endsWith(".png")).sort();
  return Promise.all(files.map(async (file) => PNG.sync.read(await readFile(join(dir, file))).data));
}

function expectSameFrames(drawn: Buffer[], clean: Buffer[]): void {
  expect(drawn.length).toBe(clean.length);
  drawn.forEach((frame, index) => expect(Buffer.compare(frame, clean[index]!), `frame ${index}`).toBe(0));
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
    expect(clean).toHaveLength(30);
    expectSameFrames(await frames("clean-too"), clean);
  });
});

describe("a damaged cache", () => {
  it.each([
    ["truncated font", "files/inter-latin-wght-normal.ttf is 1000 bytes"],
    ["empty fonts.conf", "fonts.conf is 0 bytes"],
    ["deleted font", "files/tinos-latin-400-normal.ttf is missing"],
    ["no manifest", "it has no manifest"],
    ["deleted frame", "frame_000003.png is missing"],
    ["overwritten frame", "frame_000010.png does not hold the bytes it was written with"],
  ])("%s: is rebuilt with one warning naming it, and the render draws what a clean cache draws", async (name, damage) => {
    const warnings = rebuiltWarnings(name);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(damage);
    expect(warnings[0]).toContain(cache.dir);
    expectSameFrames(await frames(name), await frames("clean"));
  });

  it("stays rebuilt: the next render has nothing to say", () => {
    expect(rebuiltWarnings("again")).toEqual([]);
  });
});
