/**
 * The floor: the least a seek-driven renderer can do. One browser seeks and captures every frame
 * in order (no frame reuse, no workers) as JPEG at quality 80 and streams them into one ffmpeg
 * that hands them to x264 as they are (no colour conversion), with the standard preset's x264
 * settings. Prints {frames} as JSON.
 */
import { frameCount, validateRenderOptions } from "@compose/core";
import { dirname } from "node:path";
import { openCompositionPage } from "../../packages/renderer/src/page/composition-page.js";
import { launchBrowser } from "../../packages/renderer/src/page/launch-browser.js";
import { readComposition } from "../../packages/renderer/src/1-load/composition/read-composition.js";
import { encoderSink } from "../../packages/renderer/src/4-encode/encoder-sink.js";
import { takeFrame } from "../../packages/renderer/src/3-capture/take-frame.js";
import { FrameFiles } from "../../packages/renderer/src/media/frame-files.js";
import { defaultFontconfig, GENERIC_FAMILIES } from "../../packages/renderer/src/web/fonts/default-fonts.js";
import { prepareMedia } from "../../packages/renderer/src/1-load/prepare-media.js";
import { serveProject } from "../../packages/renderer/src/web/project-server.js";

const [file, output] = process.argv.slice(2);
const result = validateRenderOptions({});
if (!result.ok || !file || !output) throw new Error("usage: floor.ts <composition.html> <output.mp4>");
const { fps, quality } = result.options;
const composition = await readComposition(file);
const frameFiles = new FrameFiles(() => undefined);
const server = await serveProject(dirname(file), frameFiles);
// The same fonts as a render, so both draw the same text.
const browser = await launchBrowser({ beginFrameControl: true, gpu: true, fontconfigFile: (await defaultFontconfig()).file });
const page = await openCompositionPage(browser.defaultBrowserContext(), {
  url: `${server.baseUrl}${encodeURIComponent(file.split("/").pop()!)}`,
  width: composition.width,
  height: composition.height,
  deviceScaleFactor: 1,
  transparent: false,
  captureMode: "beginframe",
  boot: {},
  fonts: { generic: GENERIC_FAMILIES },
  readyTimeoutMs: 60_000,
  allowMissingAssets: false,
  warn: () => undefined,
});
// Media files stay open until this process ends.
await prepareMedia([page], { projectRoot: dirname(file), baseUrl: server.baseUrl, fps, image: "jpeg", frames: frameFiles, keepOpen: () => undefined });
const frames = frameCount(page.info.duration!, fps);
// Every frame's image is sent, as a minimal loop would: a frame the compositor drew no damage for is the last image again.
const sink = encoderSink({ format: "mp4", fps, quality, width: composition.width, height: composition.height }, { kind: "file", path: output }, frames);
const capture = { image: "jpeg" as const, jpegQuality: 80, reuseFrames: false };
let last: Buffer | undefined;
for (let frame = 0; frame < frames; frame++) {
  const result = await takeFrame(page, frame / fps, capture);
  if (result.kind === "image") last = result.data;
  await sink.take({ kind: "image", data: last! });
}
await sink.finish();
await browser.close();
await server.close();
console.log(JSON.stringify({ frames }));
