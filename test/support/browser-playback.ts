/**
 * Video files as a viewer sees them: each file played in a <video> element of Debian's chromium
 * (over CDP) or firefox-esr (over WebDriver BiDi), the frame at a given time drawn to a canvas and
 * read back; and GIFs as an <img> and the browser's own GIF decoder (WebCodecs' ImageDecoder, in
 * both browsers) show them. The files are served over HTTP from their directory, so the canvas is
 * not tainted and the page is a secure context, which ImageDecoder needs.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

export const PLAYERS = {
  chromium: "/usr/bin/chromium",
  "firefox-esr": "/usr/bin/firefox-esr",
} as const;
export type PlayerName = keyof typeof PLAYERS;

const TYPES: Record<string, string> = { ".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime", ".gif": "image/gif" };

/** Serves `directory`'s files, with byte ranges (browsers seek media by range requests). */
async function serveDirectory(directory: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname.slice(1));
    if (name === "") {
      response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><body></body>");
      return;
    }
    const file = join(directory, basename(name));
    stat(file).then(
      ({ size }) => {
        const type = TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream";
        const range = /bytes=(\d*)-(\d*)/.exec(request.headers.range ?? "");
        if (!range) {
          response.writeHead(200, { "content-type": type, "content-length": size, "accept-ranges": "bytes" });
          createReadStream(file).pipe(response);
          return;
        }
        const start = range[1] ? Number(range[1]) : 0;
        const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        response.writeHead(206, {
          "content-type": type,
          "content-length": end - start + 1,
          "content-range": `bytes ${start}-${end}/${size}`,
          "accept-ranges": "bytes",
        });
        createReadStream(file, { start, end }).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function launch(player: PlayerName, profile: string): Promise<Browser> {
  return player === "chromium"
    ? puppeteer.launch({
        browser: "chrome",
        executablePath: PLAYERS.chromium,
        headless: true,
        userDataDir: profile,
        args: ["--no-sandbox", "--autoplay-policy=no-user-gesture-required", "--disable-background-networking", "--no-first-run"],
      })
    : puppeteer.launch({ browser: "firefox", executablePath: PLAYERS["firefox-esr"], headless: true, protocol: "webDriverBiDi", userDataDir: profile });
}

/**
 * Runs in the page: plays `src`, seeks to `at` and reads the frame back at `spots`. A string, so
 * that no transpiler helper leaks into the page.
 */
const READ_FRAME = `async ([src, at, spots]) => {
  const video = document.createElement("video");
  video.muted = true;
  video.preload = "auto";
  document.body.replaceChildren(video);
  const failed = new Promise((_, reject) => video.addEventListener("error", () => reject(new Error("cannot play " + src + ": " + (video.error && (video.error.message || video.error.code))))));
  const event = (name) => Promise.race([failed, new Promise((resolve) => video.addEventListener(name, resolve, { once: true }))]);
  video.src = src;
  await event("loadeddata");
  video.currentTime = at;
  await event("seeked");
  // The seeked frame is presented on the next animation frames.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const canvas = document.createElement("canvas");
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.fillStyle = "#000";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(video, 0, 0);
  return spots.map(([x, y]) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3)));
}`;

/** The RGB at each point of the frame at `time` seconds, as a page draws it; alpha is composited on black. */
export type PlayedColours = Array<[number, number, number]>;

/**
 * Evaluates `script` (the source of an async function of one JSON argument) in a page of `player`
 * for each file, given the file's URL and `extra(file)`. Every file must be in one directory.
 */
async function inPlayer<T>(player: PlayerName, files: string[], script: string, extra: (file: string) => unknown[]): Promise<Map<string, T>> {
  const directory = dirname(files[0]!);
  const { origin, server } = await serveDirectory(directory);
  const profile = await mkdtemp(join(tmpdir(), `compose-playback-${player}-`));
  const browser = await launch(player, profile);
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const found = new Map<string, T>();
    for (const file of files) {
      found.set(file, (await page.evaluate(`(${script})(${JSON.stringify([`${origin}/${encodeURIComponent(basename(file))}`, ...extra(file)])})`)) as T);
    }
    return found;
  } finally {
    await browser.close();
    server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * Plays each file in `player` and reads the frame at `time` back at `points` (pixel coordinates of
 * the video's own size). Every file must be in one directory.
 */
export function playedColours(
  player: PlayerName,
  files: string[],
  points: ReadonlyArray<readonly [number, number]>,
  time = 0.5,
): Promise<Map<string, PlayedColours>> {
  return inPlayer(player, files, READ_FRAME, () => [time, points]);
}

/**
 * Runs in the page: shows `src` in an <img> (its size once decoded), then decodes it with
 * ImageDecoder: the frame count, the loop count (repetitionCount: Infinity, or how many times it
 * repeats after playing once), every frame's duration, and the frame shown at `at` seconds as
 * RGBA, read back from a canvas, base64.
 */
const DECODE_GIF = `async ([src, at]) => {
  const img = document.createElement("img");
  img.src = src;
  document.body.replaceChildren(img);
  await img.decode();
  const bytes = await (await fetch(src)).arrayBuffer();
  const decoder = new ImageDecoder({ data: bytes, type: "image/gif" });
  await decoder.tracks.ready;
  await decoder.completed;
  const track = decoder.tracks.selectedTrack;
  const durations = [];
  let shown;
  let start = 0;
  for (let index = 0; index < track.frameCount; index++) {
    const { image } = await decoder.decode({ frameIndex: index });
    durations.push(image.duration);
    if (shown === undefined && at * 1e6 < start + image.duration) {
      const canvas = document.createElement("canvas");
      canvas.width = image.displayWidth;
      canvas.height = image.displayHeight;
      const context = canvas.getContext("2d", { willReadFrequently: true });
      context.drawImage(image, 0, 0);
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let binary = "";
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      shown = { index, width: canvas.width, height: canvas.height, rgba: btoa(binary) };
    }
    start += image.duration;
    image.close();
  }
  decoder.close();
  return { img: [img.naturalWidth, img.naturalHeight], frames: track.frameCount, repetitionCount: String(track.repetitionCount), durations, shown };
}`;

/** A GIF as a browser decodes it (DECODE_GIF). */
export interface DecodedGif {
  /** The <img> element's natural size. */
  img: [number, number];
  frames: number;
  /** "Infinity", or how many times the animation repeats after playing once. */
  repetitionCount: string;
  /** Every frame's duration, in microseconds. */
  durations: number[];
  /** The frame shown at the time asked for: its index, and its pixels, composited as the GIF's disposal says. */
  shown: { index: number; width: number; height: number; rgba: Buffer };
}

type DecodedInPage = Omit<DecodedGif, "shown"> & { shown?: Omit<DecodedGif["shown"], "rgba"> & { rgba: string } };

/**
 * Each GIF as `player` shows it, and its frame at the time `times` gives it (seconds), which it must
 * last past. Every file must be in one directory; one browser decodes them all.
 */
export async function decodedGifs(player: PlayerName, times: ReadonlyMap<string, number>): Promise<Map<string, DecodedGif>> {
  const found = await inPlayer<DecodedInPage>(player, [...times.keys()], DECODE_GIF, (file) => [times.get(file)]);
  return new Map(
    [...found].map(([file, { shown, ...gif }]) => {
      if (!shown) throw new Error(`${file} ends before ${times.get(file)} s`);
      return [file, { ...gif, shown: { ...shown, rgba: Buffer.from(shown.rgba, "base64") } }];
    }),
  );
}
