/**
 * Where media come from and what happens when they cannot be used: a missing or undecodable file
 * fails the render (exit 1, one line naming the element's kind, id and src, no output); an <img>
 * whose src a script sets is loaded and decoded before the frame is captured; images and videos
 * may be http(s) URLs; extracted video frames are cached by source content and fps, so a second
 * render reuses the entry and a renamed copy of the source hits it too, while a URL's frames are
 * extracted again by every render (what it serves may have changed).
 */
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limited, lines, render, type CliResult } from "../support/cli.js";
import { decodeAllFrames, type Frame } from "../support/media.js";
import { compositionHtml, createProject, type TempProject } from "../support/project.js";
import { colourName, createCacheDir, generateMedia, MEDIA_FILES } from "../support/test-media.js";

/** Serves the project's media/ over HTTP with byte ranges; a `?slow` query delays the answer. */
let server: Server;
let origin: string;
/** Request paths the server answered, in order. */
const served: string[] = [];

function startServer(root: string): Promise<void> {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    let body: Buffer;
    try {
      body = await readFile(join(root, "media", url.pathname.replace(/^\/+/, "")));
    } catch {
      response.writeHead(404).end();
      return;
    }
    if (url.searchParams.has("slow")) await new Promise((resolve) => setTimeout(resolve, 300));
    served.push(url.pathname + url.search);
    const type = url.pathname.endsWith(".png") ? "image/png" : "video/mp4";
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? "");
    if (range) {
      const start = range[1] ? Number(range[1]) : body.length - Number(range[2]);
      const end = range[1] && range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      response.writeHead(206, {
        "content-type": type,
        "accept-ranges": "bytes",
        "content-range": `bytes ${start}-${end}/${body.length}`,
        "content-length": end - start + 1,
      });
      response.end(request.method === "HEAD" ? undefined : body.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, { "content-type": type, "accept-ranges": "bytes", "content-length": body.length });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

const CACHED_CLIP = (src: string, id: string, left: number) =>
  `<video id="${id}" src="${src}" data-start="0" data-duration="0.3" style="position: absolute; left: ${left}px; top: 0; width: 160px; height: 90px"></video>`;

function files(): Record<string, string> {
  return {
    "missing.html": compositionHtml({
      id: "missing",
      duration: 0.3,
      backdrop: "#000000",
      body: `<video id="intro-clip" src="media/missing.mp4" data-start="0" style="width: 160px; height: 90px"></video>`,
    }),
    "undecodable.html": compositionHtml({
      id: "undecodable",
      duration: 0.3,
      backdrop: "#000000",
      body: `<audio id="voice-over" src="${MEDIA_FILES.broken}" data-start="0"></audio>`,
    }),
    /**
     * Top left: a picture from the HTTP server. Bottom left: a project picture whose src the script
     * sets from a string variable. Bottom middle: a picture from the HTTP server (answering after
     * 300 ms) whose src a timer sets at 0.2 s. Top right: the clip from the HTTP server, for 1 s.
     */
    "assets.html": compositionHtml({
      id: "assets",
      duration: 1.2,
      backdrop: "#000000",
      variables: [{ id: "picture", type: "string", label: "Picture", default: MEDIA_FILES.picture }],
      css: `img { position: absolute; width: 80px; height: 45px; }`,
      body: `
<img id="remote-picture" src="${origin}/picture.png" style="left: 0; top: 0">
<img id="variable-picture" style="left: 0; top: 120px">
<img id="late-picture" style="left: 100px; top: 120px">
<video id="remote-clip" src="${origin}/colours.mp4" data-start="0" data-duration="1" style="position: absolute; left: 160px; top: 0; width: 160px; height: 90px"></video>`,
      after: `<script>
  const { picture = "${MEDIA_FILES.picture}" } = __compose.getVariables();
  document.getElementById("variable-picture").src = picture;
  setTimeout(() => { document.getElementById("late-picture").src = "${origin}/picture.png?slow"; }, 200);
</script>`,
    }),
    /** A URL whose content is replaced between two renders, as a re-upload would. */
    "url-replaced.html": compositionHtml({ id: "url-replaced", duration: 0.3, backdrop: "#000000", body: CACHED_CLIP(`${origin}/replaced.mp4`, "clip", 0) }),
    "cache-first.html": compositionHtml({ id: "cache-first", duration: 0.3, backdrop: "#000000", body: CACHED_CLIP(MEDIA_FILES.colours, "clip", 0) }),
    /** The same timing, from a renamed copy of the clip; beside it a different clip. */
    "cache-copy.html": compositionHtml({
      id: "cache-copy",
      duration: 0.3,
      backdrop: "#000000",
      body: CACHED_CLIP("media/renamed-copy.mp4", "copy", 0) + CACHED_CLIP(MEDIA_FILES.other, "different", 160),
    }),
  };
}

let project: TempProject;
let cache: Awaited<ReturnType<typeof createCacheDir>>;
/** The cache renders' own $COMPOSE_CACHE_DIR, which no concurrent render touches. */
let frameCache: Awaited<ReturnType<typeof createCacheDir>>;
const results = new Map<string, CliResult>();

/** Every file under $COMPOSE_CACHE_DIR/frames: path -> inode and modification time. */
type Snapshot = Record<string, string>;
const snapshots: Snapshot[] = [];

async function snapshotFrames(): Promise<Snapshot> {
  const root = join(frameCache.dir, "frames");
  const snapshot: Snapshot = {};
  for (const entry of await readdir(root).catch(() => [])) {
    const info = await stat(join(root, entry));
    snapshot[`${entry}/`] = `ino ${info.ino}`;
    if (!info.isDirectory()) continue;
    for (const name of await readdir(join(root, entry))) {
      const fileInfo = await stat(join(root, entry, name));
      snapshot[`${entry}/${name}`] = `ino ${fileInfo.ino} mtime ${fileInfo.mtimeMs}`;
    }
  }
  return snapshot;
}

const entriesOf = (snapshot: Snapshot) => Object.keys(snapshot).filter((key) => key.endsWith("/"));

async function run(name: string, file: string, output: string, extra: string[] = [], env = cache.env): Promise<void> {
  results.set(name, await render([project.path(file), "--quiet", "--workers", "1", ...extra, "--output", project.path(output)], { env }));
}

beforeAll(async () => {
  project = await createProject({}, { prefix: "compose-media-sources-" });
  cache = await createCacheDir();
  frameCache = await createCacheDir();
  await generateMedia(project.dir, ["colours", "other", "broken", "picture"]);
  await startServer(project.dir);
  for (const [name, content] of Object.entries(files())) await writeFile(project.path(name), content);
  await mkdir(project.path("out"));
  await limited(2, [
    async () => {
      // One after the other: the cache between them is what is tested.
      await run("cache-first", "cache-first.html", "out/cache-first.mp4", [], frameCache.env);
      snapshots.push(await snapshotFrames());
      await run("cache-again", "cache-first.html", "out/cache-again.mp4", [], frameCache.env);
      snapshots.push(await snapshotFrames());
      await copyFile(project.path(MEDIA_FILES.colours), project.path("media/renamed-copy.mp4"));
      // mp4 like the first: frames are cached per image format too (JPEG for mp4, PNG otherwise).
      await run("cache-copy", "cache-copy.html", "out/cache-copy.mp4", [], frameCache.env);
      snapshots.push(await snapshotFrames());
    },
    async () => {
      await copyFile(project.path(MEDIA_FILES.colours), project.path("media/replaced.mp4"));
      await run("url-before", "url-replaced.html", "out/url-before.mp4");
      await copyFile(project.path(MEDIA_FILES.other), project.path("media/replaced.mp4"));
      await run("url-after", "url-replaced.html", "out/url-after.mp4");
    },
    () => run("missing", "missing.html", "out/missing.mp4"),
    () => run("undecodable", "undecodable.html", "out/undecodable.mp4"),
    () => run("assets", "assets.html", "out/assets", ["--format", "png-sequence"]),
  ]);
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await project?.remove();
  await cache?.remove();
  await frameCache?.remove();
});

function succeeded(name: string): void {
  const result = results.get(name)!;
  expect(result.stderr, `${name} stderr`).toBe("");
  expect(result.code, `${name} exit code`).toBe(0);
}

const decoded = new Map<string, Promise<Frame[]>>();

/** The frames of a render's output (an mp4, or a png-sequence directory), decoded once. */
async function framesOf(name: string, output: string): Promise<Frame[]> {
  succeeded(name);
  if (!decoded.has(output)) {
    decoded.set(output, decodeAllFrames(output.endsWith(".mp4") ? project.path(output) : project.path(output, "frame_%06d.png")));
  }
  return decoded.get(output)!;
}

describe("media that cannot be used", () => {
  it("a missing file fails the render: exit 1, one line naming the kind, id and src, no output", async () => {
    const result = results.get("missing")!;
    expect(result.code).toBe(1);
    const stderr = lines(result.stderr);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^error: /);
    expect(stderr[0]).toMatch(/\bvideo\b/);
    expect(stderr[0]).toContain("intro-clip");
    expect(stderr[0]).toContain("media/missing.mp4");
    expect(await readdir(project.path("out"))).not.toContainEqual(expect.stringContaining("missing"));
  });

  it("an undecodable file (text named .mp4) fails the render the same way", async () => {
    const result = results.get("undecodable")!;
    expect(result.code).toBe(1);
    const stderr = lines(result.stderr);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^error: /);
    expect(stderr[0]).toMatch(/\baudio\b/);
    expect(stderr[0]).toContain("voice-over");
    expect(stderr[0]).toContain(MEDIA_FILES.broken);
    expect(await readdir(project.path("out"))).not.toContainEqual(expect.stringContaining("undecodable"));
  });
});

describe("images and URLs", () => {
  it("an <img> whose src the script sets from a variable shows from the first frame", async () => {
    const frames = await framesOf("assets", "out/assets");
    expect(frames).toHaveLength(36);
    expect([0, 1, 35].map((n) => colourName(frames[n]!, 40, 142))).toEqual(["orange", "orange", "orange"]);
  });

  it("an <img> from an http URL shows from the first frame", async () => {
    const frames = await framesOf("assets", "out/assets");
    expect([0, 35].map((n) => colourName(frames[n]!, 40, 22))).toEqual(["orange", "orange"]);
  });

  it("an <img> given a slow http src by a timer at 0.2 s is waited for: shown from that frame on", async () => {
    const frames = await framesOf("assets", "out/assets");
    expect(served).toContain("/picture.png?slow");
    // Frame 6 is t = 0.2 s, when the timer fires.
    expect([0, 5, 7, 20].map((n) => colourName(frames[n]!, 140, 142))).toEqual(["black", "black", "orange", "orange"]);
  });

  it("a <video> from an http URL plays its frames in its window", async () => {
    const frames = await framesOf("assets", "out/assets");
    expect(served.some((path) => path.startsWith("/colours.mp4"))).toBe(true);
    expect([0, 14, 15, 29, 30, 35].map((n) => colourName(frames[n]!, 240, 45))).toEqual(["red", "red", "lime", "lime", "black", "black"]);
  });
});

describe("the frame cache", () => {
  it("a URL whose content was replaced between two renders shows what it serves now", async () => {
    const before = await framesOf("url-before", "out/url-before.mp4");
    const after = await framesOf("url-after", "out/url-after.mp4");
    expect([colourName(before[0]!, 80, 45), colourName(after[0]!, 80, 45)]).toEqual(["red", "yellow"]);
  });

  it("the first render fills one entry under $COMPOSE_CACHE_DIR/frames, and nothing else", () => {
    succeeded("cache-first");
    expect(entriesOf(snapshots[0]!)).toHaveLength(1);
    expect(Object.keys(snapshots[0]!).filter((key) => key.endsWith(".jpg") || key.endsWith(".png"))).toHaveLength(9);
  });

  it("a second render of the same composition reuses the entry: same directory, no file rewritten", () => {
    succeeded("cache-again");
    expect(snapshots[1]).toEqual(snapshots[0]);
  });

  it("a renamed copy of the source hits the same entry; a different clip gets a new one", async () => {
    const frames = await framesOf("cache-copy", "out/cache-copy.mp4");
    const [before, after] = [snapshots[1]!, snapshots[2]!];
    // Every file of the first entry is still there, untouched.
    expect(Object.fromEntries(Object.keys(before).map((key) => [key, after[key]]))).toEqual(before);
    expect(entriesOf(after)).toHaveLength(2);
    // The output is right: the copy (red at first) and the other clip (yellow).
    expect([colourName(frames[0]!, 80, 45), colourName(frames[0]!, 240, 45)]).toEqual(["red", "yellow"]);
  });
});
