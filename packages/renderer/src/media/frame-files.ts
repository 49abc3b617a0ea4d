import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { holdsBytes, warnIfRebuilt, type CacheEntry } from "../common/cache.js";
import type { RendererFiles } from "../web/project-server.js";
import type { ExtractedFrames } from "./extract-frames.js";

/** One entry a render's pages load frames from, and its refill while one runs. */
interface HeldEntry {
  frames: ExtractedFrames;
  /** What the entry holds, for the notice of its refill. */
  what: string;
  entry: CacheEntry;
  refilling?: Promise<void>;
}

/** A frame's URL path under FRAMES_PREFIX: `<entry key>/<file name>`. */
const FRAME_PATH = /^([0-9a-f]{32})\/([\w.-]+)$/;

/**
 * The extracted frames a render's pages load, as the project server serves them. Each file is
 * checked against its entry's manifest as it is read, so that a render reads every frame it shows
 * once and checks exactly those; an entry found damaged is extracted again, with a
 * `cache-rebuilt` warning, before the frame is served. Only the entries of this render are served.
 */
export class FrameFiles implements RendererFiles {
  private readonly held = new Map<string, HeldEntry>();

  constructor(private readonly warn: (code: string, message: string) => void) {}

  /** Serves `frames` from now on, and tells the render if their entry had to be made again. */
  hold(frames: ExtractedFrames, what: string): void {
    warnIfRebuilt(frames.entry, what, this.warn);
    if (!this.held.has(frames.key)) this.held.set(frames.key, { frames, what, entry: frames.entry });
  }

  async read(path: string): Promise<Buffer | undefined> {
    const [, key, name] = FRAME_PATH.exec(path) ?? [];
    const held = key === undefined ? undefined : this.held.get(key);
    if (!held || name === undefined || !Object.hasOwn(held.entry.manifest.files, name)) return undefined;
    for (let attempt = 1; ; attempt++) {
      const entry = held.entry;
      const bytes = await readFile(join(entry.dir, name)).catch(() => undefined);
      if (bytes && holdsBytes(entry, name, bytes)) return bytes;
      if (attempt === 2) return undefined;
      await this.refill(held, entry, bytes ? `${name} does not hold the bytes it was written with` : `${name} is missing`);
    }
  }

  /** Extracts the frames of a damaged entry again, once however many of its files are found damaged meanwhile. */
  private refill(held: HeldEntry, seen: CacheEntry, damage: string): Promise<void> {
    if (held.entry !== seen) return Promise.resolve();
    held.refilling ??= held.frames
      .refill(damage)
      .then((entry) => {
        held.entry = entry;
        warnIfRebuilt(entry, held.what, this.warn);
      })
      // A refill that fails leaves the frame unserved: the page's missing image fails the render.
      .catch(() => undefined)
      .finally(() => {
        held.refilling = undefined;
      });
    return held.refilling;
  }
}
